import { createCipheriv } from 'node:crypto';
import { readFileSync } from 'node:fs';

// Texts whose tokens per character differ the most, for the tests of counts by length: this
// project's own code, prose and JSON, Chinese, Japanese and Korean prose, chat with emoji
// (sequences joined by zero-width joiners, flags, skin tones), base64 and hex of random bytes,
// indentation, and code points drawn at random from all of Unicode (the densest text there is).

const read = (file: string): string => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

/** Pseudo-random bytes, the same for the same seed. */
export function randomBytes(count: number, seed: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(seed);
  return createCipheriv('aes-128-ctr', Buffer.alloc(16), iv).update(Buffer.alloc(count));
}

const CHINESE =
  '会话越长，模型的上下文就越满。为了不超出窗口，应用会在下一次请求之前估算它的大小：远低于阈值时按长度计算，' +
  '接近阈值时才加载分词器的词表，逐个计算。压缩把较早的消息写成摘要，最近的步骤和用户的最后一条消息原样保留。' +
  '文件、命令和错误都记在摘要里，待办事项在压缩之后会再次完整地告诉模型。';
const JAPANESE =
  'セッションが長くなると、モデルのコンテキストは少しずつ埋まっていきます。ウィンドウを超えないように、' +
  '次のリクエストの前にその大きさを見積もります。しきい値から遠いうちは文字数で数え、近づいたときだけ' +
  'トークナイザーの表を読み込んで正確に数えます。要約には触れたファイル、実行したコマンド、残っているエラーが入ります。';
const KOREAN =
  '세션이 길어질수록 모델의 컨텍스트는 점점 차오릅니다. 창을 넘지 않도록 다음 요청 전에 그 크기를 추정합니다. ' +
  '임계값에서 멀리 있을 때는 길이로 세고, 가까워졌을 때만 토크나이저의 표를 불러와 정확하게 셉니다. ' +
  '요약에는 수정한 파일, 실행한 명령, 아직 남은 오류가 담깁니다.';
const EMOJI_CHAT =
  'Shipped it 🚀🎉 — tests green ✅✅✅, bench 📉 down 40 %! 👨‍👩‍👧‍👦 family dinner after 🍝🍷. ' +
  'Flags for the release notes: 🇫🇷 🇯🇵 🇧🇷 🇰🇷 🇺🇦 🏳️‍🌈 🏴‍☠️. Thumbs 👍🏻👍🏼👍🏽👍🏾👍🏿, ' +
  'people 🧑‍💻👩🏽‍🔬🧑🏿‍🚀👨‍🍳, weather ☀️🌧️⛈️🌈❄️, and a keycap 1️⃣2️⃣3️⃣#️⃣. 🙈🙉🙊💯🔥✨🫠🫶🏾';

/** Up to `length` characters of `text` repeated. */
function filled(text: string, length: number): string {
  return text.repeat(Math.ceil(length / text.length)).slice(0, length);
}

/** Code points drawn from all of Unicode (no surrogates, no unassigned planes): as dense as text gets. */
function anyCodePoints(count: number): string {
  const bytes = randomBytes(count * 4, 7);
  let text = '';
  for (let index = 0; index < count; index += 1) {
    const value = bytes.readUInt32BE(index * 4);
    // Half from the BMP past ASCII, half from the supplementary planes in use (1–3).
    const point = value % 2 === 0 ? 0x80 + (value % (0xd800 - 0x80)) : 0x10000 + (value % 0x30000);
    text += String.fromCodePoint(point);
  }
  return text;
}

/** Each kind of text, about `length` characters of it. */
export function tokenTexts(length = 40_000): Record<string, string> {
  return {
    code: (read('main/agent/turn.ts') + read('main/model/sdk-adapter.ts')).slice(0, length),
    prose: (read('docs/context.md') + read('docs/models.md')).slice(0, length),
    json: read('package-lock.json').slice(0, length),
    chinese: filled(CHINESE, length),
    japanese: filled(JAPANESE, length),
    korean: filled(KOREAN, length),
    emoji: filled(EMOJI_CHAT, length),
    base64: randomBytes(Math.ceil((length * 3) / 4), 1)
      .toString('base64')
      .slice(0, length),
    hex: randomBytes(Math.ceil(length / 2), 2)
      .toString('hex')
      .slice(0, length),
    indentation: filled(`${' '.repeat(24)}}\n${'\t'.repeat(6)}};\n\n`, length),
    any: anyCodePoints(Math.ceil(length / 2)),
  };
}
