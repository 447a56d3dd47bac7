/**
 * A snippet edit that loses a race (`shared/snippets/commands/snippets.ts`): applied again over the
 * snippet as the other edit left it, and the objects nobody names any more deleted; when the
 * snippet went meanwhile, 404 and the edit's own new objects deleted.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteObjectsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setS3Client } from '../../shared/platform/s3/client';
import { editSnippet } from '../../shared/snippets/commands/snippets';
import { snippetKeys } from '../../shared/snippets/store/keys';
import type { Snippet } from '../../shared/snippets/store/snippets';
import { useMockedTable } from '../support/mocked-table';

const ddbMock = useMockedTable('snippet-edits-test');
const s3Mock = mockClient(S3Client);

const read: Snippet = {
  id: 5,
  projectId: 7,
  title: 'T',
  description: null,
  visibility: 'private',
  authorId: 1,
  files: [{ path: 'a.rb', object: 'snippets/7/5/a1', size: 1 }],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
};
/** What another edit left meanwhile: `a.rb` replaced, `b.rb` added. */
const meanwhile: Snippet = { ...read, version: 2, files: [{ path: 'a.rb', object: 'snippets/7/5/a2', size: 2 }, { path: 'b.rb', object: 'snippets/7/5/b1', size: 1 }] };
const lost = Object.assign(new ConditionalCheckFailedException({ message: 'lost', $metadata: {} }), { name: 'ConditionalCheckFailedException' });

describe('editSnippet under a race', () => {
  beforeAll(() => setS3Client(new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } })));
  beforeEach(() => {
    s3Mock.reset();
    s3Mock.on(PutObjectCommand).resolves({});
    s3Mock.on(DeleteObjectsCommand).resolves({});
  });
  afterAll(() => {
    s3Mock.restore();
    setS3Client(undefined);
  });

  it('applies the actions again over the version another edit wrote, then deletes what is no longer named', async () => {
    // Prepare
    ddbMock.on(UpdateCommand).rejectsOnce(lost).callsFake((input) => ({ Attributes: { ...meanwhile, files: input.ExpressionAttributeValues[':files'], version: 3 } }));
    ddbMock.on(GetCommand, { Key: snippetKeys.snippet(7, 5) }).resolves({ Item: { ...snippetKeys.snippet(7, 5), type: 'Snippet', ...meanwhile } });

    // Act
    const edited = await editSnippet(read, { files: [{ action: 'update', file_path: 'a.rb', content: 'new' }] });

    // Assess
    const updates = ddbMock.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(updates.map((update) => update.ExpressionAttributeValues?.[':read'])).toEqual([1, 2]);
    const [written] = s3Mock.commandCalls(PutObjectCommand).map((call) => call.args[0].input.Key);
    expect(edited.files).toEqual([{ path: 'a.rb', object: written, size: 3 }, meanwhile.files[1]]);
    const deleted = s3Mock.commandCalls(DeleteObjectsCommand).flatMap((call) => call.args[0].input.Delete?.Objects?.map((object) => object.Key));
    expect(deleted).toEqual(['snippets/7/5/a2']);
  });

  it('answers 404 when the snippet went meanwhile, and deletes the contents it wrote', async () => {
    // Prepare
    ddbMock.on(UpdateCommand).rejects(lost);
    ddbMock.on(GetCommand).resolves({});

    // Act
    const attempt = editSnippet(read, { title: 'Gone', files: [{ action: 'create', file_path: 'c.rb', content: 'c' }] });

    // Assess
    await expect(attempt).rejects.toMatchObject({ statusCode: 404, body: { message: '404 Snippet Not Found' } });
    const [written] = s3Mock.commandCalls(PutObjectCommand).map((call) => call.args[0].input.Key);
    const deleted = s3Mock.commandCalls(DeleteObjectsCommand).flatMap((call) => call.args[0].input.Delete?.Objects?.map((object) => object.Key));
    expect(deleted).toEqual([written]);
  });
});
