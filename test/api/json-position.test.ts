import { describe, expect, it } from 'vitest';
import { firstJsonErrorOffset, jsonErrorPosition } from '../../src/api/json-position.js';

describe('JSON error position', () => {
  it.each([
    ['{"a": oops}', 6],
    ['[1, 2,]', 6],
    ['{"a": 1', 7],
    ['<!doctype html>', 0],
    ['{"a": "x\\q"}', 9],
    ['{"a": 1} trailing', 9],
    ['', 0],
  ])('%j fails at %i', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(firstJsonErrorOffset(text)).toBe(offset);
  });

  it('line and column', () => {
    expect(jsonErrorPosition('{\n  "a": 1,\n  "b": nope\n}')).toEqual({ offset: 20, line: 3, column: 9 });
  });
});
