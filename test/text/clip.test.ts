import assert from "node:assert/strict";
import { test } from "node:test";
import { clipText, clipTextStart } from "../../src/text/clip.js";

test("clipText: at most max UTF-16 units, never inside a surrogate pair or a grapheme", () => {
  assert.equal(clipText("plain ascii text", 5), "plain");
  assert.equal(clipText("short", 80), "short");
  assert.equal(clipText("ab😀cd", 3), "ab", "the cut at 3 would keep the emoji's high half");
  assert.equal(clipText("ab😀cd", 4), "ab😀");
  assert.equal(clipText("hi 🇫🇷 there", 5), "hi ", "a flag is two regional indicators, kept together");
  assert.equal(clipText("go 👍🏽 now", 5), "go ", "an emoji keeps its skin tone");
  assert.equal(clipText("café", 4), "café");
  assert.equal(clipText("cafe\u0301 au lait", 4), "caf", "e + combining acute is one letter");
  assert.equal(clipText("a\r\nb", 2), "a", "CR LF is one grapheme");
  assert.equal(clipText("x", 0), "");
});

test("clipTextStart: at most max units from the end, starting on a grapheme", () => {
  assert.equal(clipTextStart("builder.with(x).build()", 7), "build()");
  assert.equal(clipTextStart("a😀bc", 3), "bc");
  assert.equal(clipTextStart("a😀bc", 4), "😀bc");
  assert.equal(clipTextStart("\udc00tail", 4), "tail", "a text that starts inside a pair loses the lone half");
  assert.equal(clipTextStart("🇫🇷🇯🇵", 6), "🇯🇵", "regional indicators pair from the start of the run");
});
