import { CheckpointStore } from '../main/tools/checkpoints/checkpoint-store.ts';

// A process that rewinds a workspace, for the test that kills one mid-way:
// node test/checkpoint-rewind-child.ts STORE_FOLDER WORKSPACE CHECKPOINT_ID

const [folder, workspace, id] = process.argv.slice(2);
if (!folder || !workspace || !id)
  throw new Error('usage: checkpoint-rewind-child.ts STORE_FOLDER WORKSPACE CHECKPOINT_ID');
const store = await CheckpointStore.open(folder, workspace);
await store.rewind(id, 'take');
