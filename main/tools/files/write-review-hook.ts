import type { ReviewProposal } from '../../../protocol/review.ts';
import type { CallHook } from '../call-hooks.ts';

// Review before a write lands, as a call hook: when the gate asks about a tool that can propose its
// change as hunks (write_file, patch_file), the hunks go with the question to a person who can
// answer per hunk, and the hunks they chose go to the tool's execute as `ctx.review`.

export function writeReviewHook(): CallHook {
  return {
    name: 'write review',
    question({ tool, args, context }) {
      const propose = tool.gate.proposeReview?.bind(tool.gate);
      if (!propose) return undefined;
      let proposal: ReviewProposal | null = null;
      return {
        review: async () => {
          proposal = await propose(args, context).catch(() => null);
          return proposal?.review ?? null;
        },
        chosen: (choice) => (proposal ? { proposal, choice } : undefined),
      };
    },
  };
}
