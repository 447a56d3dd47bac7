/**
 * Lazy wiring (`shared/platform/lazy.ts`): a hook registered by the composition root loads its
 * module only when it first runs, once, and then behaves as the function it stands for.
 */
import { describe, expect, it } from 'vitest';
import { lazily } from '../../shared/platform/lazy';

describe('lazily', () => {
  it('loads the module on the first call only, and answers as the picked function', async () => {
    // Arrange
    let loads = 0;
    const load = async () => {
      loads++;
      return { add: (a: number, b: number) => a + b };
    };
    const add = lazily(load, (m) => m.add);

    // Act
    const before = loads;
    const results = [await add(1, 2), await add(3, 4)];

    // Assess
    expect(before).toBe(0);
    expect(results).toEqual([3, 7]);
    expect(loads).toBe(1);
  });

  it('rejects with the error of the function it stands for, and loads again after a failed load', async () => {
    // Arrange: the first load fails (a chunk missing), the second succeeds.
    let loads = 0;
    const load = async () => {
      if (++loads === 1) throw new Error('chunk missing');
      return { fail: async () => Promise.reject(new Error('gone')) };
    };
    const fail = lazily(load, (m) => m.fail);

    // Act / Assess
    await expect(fail()).rejects.toThrow('chunk missing');
    await expect(fail()).rejects.toThrow('gone');
    expect(loads).toBe(2);
  });
});
