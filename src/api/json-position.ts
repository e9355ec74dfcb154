/**
 * Where a JSON text first goes wrong. Node 20's JSON.parse messages often
 * omit the offset ("Unexpected token 'o', ..."), and a curator needs to know
 * where to look in a 2 MB page. Only called after JSON.parse has failed.
 */

export interface JsonPosition {
  /** 0-based character offset. */
  offset: number;
  /** 1-based. */
  line: number;
  column: number;
}

/** A recursive-descent scan of the RFC 8259 grammar that returns the first offset it cannot accept. */
export function firstJsonErrorOffset(text: string): number {
  let at = 0;
  const fail = (): never => {
    throw at;
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at])) at++;
  };
  const literal = (word: string) => {
    for (const char of word) if (text[at++] !== char) (at--, fail());
  };
  const string = () => {
    at++; // opening quote
    while (at < text.length && text[at] !== '"') {
      if (text.charCodeAt(at) < 0x20) fail();
      if (text[at] === '\\') {
        at++;
        if (text[at] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail();
          at += 4;
        } else if (!'"\\/bfnrt'.includes(text[at] ?? 'x')) fail();
      }
      at++;
    }
    if (at >= text.length) fail();
    at++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (!match) fail();
    at += match![0].length;
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === '{') {
      at++;
      space();
      if (text[at] === '}') return void at++;
      for (;;) {
        space();
        if (text[at] !== '"') fail();
        string();
        space();
        if (text[at] !== ':') fail();
        at++;
        value();
        space();
        if (text[at] === '}') return void at++;
        if (text[at] !== ',') fail();
        at++;
      }
    }
    if (char === '[') {
      at++;
      space();
      if (text[at] === ']') return void at++;
      for (;;) {
        value();
        space();
        if (text[at] === ']') return void at++;
        if (text[at] !== ',') fail();
        at++;
      }
    }
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    return number();
  };
  try {
    value();
    space();
    if (at < text.length) fail();
  } catch (offset) {
    if (typeof offset === 'number') return Math.min(offset, text.length);
    throw offset;
  }
  return text.length;
}

export function jsonErrorPosition(text: string): JsonPosition {
  const offset = firstJsonErrorOffset(text);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { offset, line, column };
}
