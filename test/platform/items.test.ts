/** What a store maps from an item (`entityFields`): the entity's own attributes, never the table's keys or bookkeeping. */
import { describe, expect, it } from 'vitest';
import { entityFields } from '../../shared/platform/dynamo/items';

describe('entityFields', () => {
  it("strips the table's key, index and bookkeeping attributes and keeps everything else, however alike its name", () => {
    const item = {
      PK: 'PROJECT#1', SK: 'ISSUE#1', GSI1PK: 'a', GSI1SK: 'b', GSI6SK: 'c', GSI12PK: 'd', type: 'Issue', ownedKeys: ['x'],
      id: 7, title: 'Crash', GSIndex: 1, GSI1: 2, GSI1PKS: 3, typeName: 4, PKs: 5, sk: 6, nested: { PK: 'kept' },
    };
    expect(entityFields(item)).toEqual({ id: 7, title: 'Crash', GSIndex: 1, GSI1: 2, GSI1PKS: 3, typeName: 4, PKs: 5, sk: 6, nested: { PK: 'kept' } });
  });
});
