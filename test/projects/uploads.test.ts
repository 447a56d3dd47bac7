import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { config, resetConfig } from '../../shared/platform/config';
import { setClients } from '../../shared/platform/dynamo/client';
import { setS3Client } from '../../shared/platform/s3/client';
import { projectKeys } from '../../shared/projects/store/keys';
import type { Project } from '../../shared/projects/store/projects';
import type { User } from '../../shared/users/store/users';
import { deleteProject } from '../../shared/projects/commands/projects';
import { storeUpload } from '../../shared/projects/commands/uploads';
import { findUpload } from '../../shared/projects/queries/uploads';
import { contentDispositionFor, contentTypeFor, extensionOf, markdownLink, markdownName, parseUploadPath, sanitizeFilename } from '../../shared/projects/upload-rules';
import { NotFoundError, PayloadTooLargeError } from '../../shared/platform/http/errors';
import { presentUpload } from '../../shared/projects/presenters/uploads';

const SECRET = '0123456789abcdef0123456789abcdef';

describe('upload file names', () => {
  it.each([
    ['screen.png', 'screen.png'],
    ['my screen shot (1).PNG', 'my_screen_shot__1_.PNG'],
    ['C:\\Users\\me\\shot.png', 'shot.png'],
    ['../../etc/passwd', 'passwd'],
    ['dir/', 'dir'],
    ['résumé.pdf', 'r_sum_.pdf'],
    ['emoji-😀.txt', 'emoji-_.txt'],
    ['.', '_.'],
    ['..', '_..'],
    ['', 'unnamed'],
    ['/', 'unnamed'],
    ['.hidden', '.hidden'],
    ['a-b_c.tar.gz', 'a-b_c.tar.gz'],
  ])('sanitizes %j to %j', (given, expected) => {
    expect(sanitizeFilename(given)).toBe(expected);
  });

  it('caps a long name at 255 characters, keeping its extension', () => {
    // Act
    const name = sanitizeFilename(`${'a'.repeat(300)}.png`);

    // Assess
    expect(name).toHaveLength(255);
    expect(name.endsWith('.png')).toBe(true);
  });

  it.each([
    ['a.png', 'png'],
    ['a.tar.GZ', 'gz'],
    ['.png', ''],
    ['.a.png', 'png'],
    ['README', ''],
    ['a.', ''],
  ])('finds the extension of %j like Ruby File.extname: %j', (name, extension) => {
    expect(extensionOf(name)).toBe(extension);
  });
});

describe('upload Markdown', () => {
  describe.each(['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp', 'mp4', 'm4v', 'mov', 'webm', 'ogv', 'mp3', 'oga', 'ogg', 'spx', 'wav'])(
    'an embeddable .%s file',
    (extension) => {
      it('is embedded, named without its extension', () => {
        // Act
        const markdown = markdownLink(`my.shot.${extension}`, `/uploads/${SECRET}/my.shot.${extension}`);

        // Assess
        expect(markdownName(`my.shot.${extension}`)).toBe('my.shot');
        expect(markdown).toBe(`![my.shot](/uploads/${SECRET}/my.shot.${extension})`);
      });
    },
  );

  it('embeds an SVG but keeps its full name (GitLab: dangerous, not embeddable)', () => {
    expect(markdownName('logo.svg')).toBe('logo.svg');
    expect(markdownLink('logo.svg', '/uploads/x/logo.svg')).toBe('![logo.svg](/uploads/x/logo.svg)');
  });

  it.each(['notes.txt', 'archive.tar.gz', 'README', 'doc.pdf', 'page.html'])('links %s as a file, with its full name', (name) => {
    expect(markdownName(name)).toBe(name);
    expect(markdownLink(name, `/uploads/${SECRET}/${name}`)).toBe(`[${name}](/uploads/${SECRET}/${name})`);
  });

  it('matches extensions case-insensitively', () => {
    expect(markdownLink('Shot.PNG', '/u')).toBe('![Shot](/u)');
  });

  it('escapes ] in the link text', () => {
    expect(markdownLink('a]b.txt', '/u')).toBe('[a\\]b.txt](/u)');
  });
});

describe('upload content types', () => {
  it('types embeddable files by extension, whatever the client says', () => {
    expect(contentTypeFor('shot.png', 'text/html')).toBe('image/png');
    expect(contentTypeFor('clip.mp4', 'application/octet-stream')).toBe('video/mp4');
  });

  it("keeps a valid part type for other files, else the extension's, else octet-stream", () => {
    expect(contentTypeFor('notes.txt', 'text/plain;charset=utf-8')).toBe('text/plain;charset=utf-8');
    expect(contentTypeFor('notes.txt', 'application/octet-stream')).toBe('text/plain');
    expect(contentTypeFor('notes.txt', 'not a type')).toBe('text/plain');
    expect(contentTypeFor('data.bin', 'text/plain\r\nX-Evil: 1')).toBe('application/octet-stream');
    expect(contentTypeFor('logo.svg', undefined)).toBe('image/svg+xml');
    expect(contentTypeFor('README', '')).toBe('application/octet-stream');
  });

  it('serves embeddable files inline and everything else (SVG included) as an attachment', () => {
    expect(contentDispositionFor('shot.png')).toBe('inline; filename="shot.png"');
    expect(contentDispositionFor('logo.svg')).toBe('attachment; filename="logo.svg"');
    expect(contentDispositionFor('notes.txt')).toBe('attachment; filename="notes.txt"');
  });
});

describe('upload size limit', () => {
  const saved = process.env.MAX_UPLOAD_BYTES;
  afterEach(() => {
    if (saved === undefined) delete process.env.MAX_UPLOAD_BYTES;
    else process.env.MAX_UPLOAD_BYTES = saved;
    resetConfig();
  });

  it('is 4 MiB by default', () => {
    delete process.env.MAX_UPLOAD_BYTES;
    resetConfig();
    expect(config().maxUploadBytes).toBe(4 * 1024 * 1024);
  });

  it('reads MAX_UPLOAD_BYTES from the configuration, ignoring nonsense', () => {
    process.env.MAX_UPLOAD_BYTES = '1000';
    resetConfig();
    expect(config().maxUploadBytes).toBe(1000);
    process.env.MAX_UPLOAD_BYTES = 'lots';
    resetConfig();
    expect(config().maxUploadBytes).toBe(4 * 1024 * 1024);
  });
});

describe('upload web paths', () => {
  it('parses a project path, nested or not, a secret and a file name', () => {
    expect(parseUploadPath(`group/app/uploads/${SECRET}/a.png`)).toEqual({ projectPath: 'group/app', secret: SECRET, filename: 'a.png' });
    expect(parseUploadPath(`/group/sub/app/uploads/${SECRET}/a.png`)).toEqual({
      projectPath: 'group/sub/app',
      secret: SECRET,
      filename: 'a.png',
    });
  });

  it.each([
    `app/uploads/${SECRET}/a.png`,
    `group/app/uploads/${SECRET}`,
    `group/app/files/${SECRET}/a.png`,
    `group/app/uploads/${SECRET.toUpperCase()}/a.png`,
    `group/app/uploads/abc/a.png`,
    `group//app/uploads/${SECRET}/a.png`,
    `group/app/uploads/${SECRET}/a.png/`,
    'api/v4/nope',
  ])('refuses %s', (path) => {
    expect(parseUploadPath(path)).toBeUndefined();
  });
});

describe('presentUpload', () => {
  const saved = process.env.EXTERNAL_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.EXTERNAL_URL;
    else process.env.EXTERNAL_URL = saved;
    resetConfig();
  });

  const upload = {
    projectId: 7,
    secret: SECRET,
    filename: 'shot.png',
    contentType: 'image/png',
    size: 3,
    uploadedBy: 1,
    createdAt: '2025-01-01T00:00:00.000Z',
  };

  it("presents GitLab's ProjectUpload", () => {
    // Prepare
    process.env.EXTERNAL_URL = 'https://git.example.com';
    resetConfig();

    // Act
    const body = presentUpload(upload, 'group/app');

    // Assess
    expect(body).toEqual({
      alt: 'shot',
      url: `/uploads/${SECRET}/shot.png`,
      full_path: `/group/app/uploads/${SECRET}/shot.png`,
      markdown: `![shot](/uploads/${SECRET}/shot.png)`,
    });
  });

  it('starts full_path with the path of the external URL (a stage or relative root)', () => {
    // Prepare
    process.env.EXTERNAL_URL = 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/';
    resetConfig();

    // Act / Assess
    expect(presentUpload(upload, 'group/app').full_path).toBe(`/prod/group/app/uploads/${SECRET}/shot.png`);
  });
});

describe('upload storage', () => {
  const ddbMock = mockClient(DynamoDBDocumentClient);
  const s3Mock = mockClient(S3Client);
  const saved = { table: process.env.TABLE_NAME, bucket: process.env.BUCKET_NAME, max: process.env.MAX_UPLOAD_BYTES };
  const project = { id: 7, name: 'App', path: 'app', namespaceId: 3, forkedFromId: null } as unknown as Project;
  const uploader = { id: 11 } as User;
  const png = { filename: 'my shot.png', contentType: 'text/html', data: Buffer.from([0x89, 0x50, 0x4e, 0x47]) };

  beforeAll(() => {
    process.env.TABLE_NAME = 'uploads-test';
    process.env.BUCKET_NAME = 'uploads-bucket';
    resetConfig();
    const credentials = { accessKeyId: 'x', secretAccessKey: 'y' };
    setClients({ db: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', credentials })) });
    setS3Client(new S3Client({ region: 'us-east-1', credentials }));
  });
  beforeEach(() => {
    ddbMock.reset();
    s3Mock.reset();
    delete process.env.MAX_UPLOAD_BYTES;
    resetConfig();
  });
  afterAll(() => {
    for (const [name, value] of [['TABLE_NAME', saved.table], ['BUCKET_NAME', saved.bucket], ['MAX_UPLOAD_BYTES', saved.max]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfig();
    ddbMock.restore();
    s3Mock.restore();
  });

  it('puts the bytes under the project prefix, then the item in the project partition while the project is live', async () => {
    // Act
    const upload = await storeUpload(project, uploader, png);

    // Assess
    expect(upload).toMatchObject({ projectId: 7, filename: 'my_shot.png', contentType: 'image/png', size: 4, uploadedBy: 11 });
    expect(upload.secret).toMatch(/^[0-9a-f]{32}$/);
    const [put] = s3Mock.commandCalls(PutObjectCommand);
    expect(put.args[0].input).toMatchObject({
      Bucket: 'uploads-bucket',
      Key: `projects/7/uploads/${upload.secret}/my_shot.png`,
      ContentType: 'image/png',
      Body: png.data,
    });
    const [write] = ddbMock.commandCalls(TransactWriteCommand);
    expect(write.args[0].input.TransactItems).toEqual([
      expect.objectContaining({ ConditionCheck: expect.objectContaining({ Key: projectKeys.project(7) }) }),
      { Put: expect.objectContaining({ Item: expect.objectContaining({ ...projectKeys.upload(7, upload.secret), type: 'Upload' }) }) },
    ]);
  });

  it('removes the object again and answers 404 when the project is being deleted', async () => {
    // Prepare
    ddbMock.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }] }),
    );

    // Act
    const act = storeUpload(project, uploader, png);

    // Assess
    await expect(act).rejects.toBeInstanceOf(NotFoundError);
    const [put] = s3Mock.commandCalls(PutObjectCommand);
    const [removed] = s3Mock.commandCalls(DeleteObjectCommand);
    expect(removed.args[0].input).toEqual({ Bucket: 'uploads-bucket', Key: put.args[0].input.Key });
  });

  it('stores nothing above MAX_UPLOAD_BYTES: 413', async () => {
    // Prepare
    process.env.MAX_UPLOAD_BYTES = '3';
    resetConfig();

    // Act
    const act = storeUpload(project, uploader, png);

    // Assess
    await expect(act).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(s3Mock.calls()).toHaveLength(0);
    expect(ddbMock.calls()).toHaveLength(0);
  });

  it('finds an upload only by its secret and exact file name', async () => {
    // Prepare
    const item = { ...projectKeys.upload(7, SECRET), type: 'Upload', projectId: 7, secret: SECRET, filename: 'a.png', contentType: 'image/png', size: 1, uploadedBy: 11, createdAt: 'x' };
    ddbMock.on(GetCommand).resolves({ Item: item });

    // Act / Assess
    expect(await findUpload(7, SECRET, 'a.png')).toMatchObject({ filename: 'a.png', contentType: 'image/png' });
    expect(await findUpload(7, SECRET, 'A.png')).toBeUndefined();
    expect(await findUpload(7, 'not-a-secret', 'a.png')).toBeUndefined();
    expect(ddbMock.commandCalls(GetCommand)[0].args[0].input.Key).toEqual(projectKeys.upload(7, SECRET));
  });

  it('is deleted with its project: the item with the partition, the object with the prefix', async () => {
    // Prepare
    const objectKey = `projects/7/uploads/${SECRET}/a.png`;
    // The project's partition read whole holds an upload; other reads (a part of it, an index) find nothing.
    ddbMock.on(QueryCommand).resolves({ Items: [] });
    ddbMock
      .on(QueryCommand, { KeyConditionExpression: '#pk = :pk', ExpressionAttributeValues: { ':pk': projectKeys.project(7).PK } })
      .resolves({ Items: [{ ...projectKeys.project(7) }, { ...projectKeys.upload(7, SECRET), type: 'Upload' }] });
    s3Mock.on(ListObjectsV2Command).resolves({ Contents: [], IsTruncated: false });
    s3Mock.on(ListObjectsV2Command, { Prefix: 'projects/7/' }).resolves({ Contents: [{ Key: objectKey }], IsTruncated: false });
    ddbMock.on(BatchGetCommand).resolves({ Responses: {} });
    ddbMock.on(BatchWriteCommand).resolves({ UnprocessedItems: {} });
    // Other features' removal steps find nothing of theirs, e.g. no repository.
    ddbMock.on(GetCommand).resolves({});

    // Act
    await deleteProject(project);

    // Assess
    const deleted = ddbMock.commandCalls(BatchWriteCommand).flatMap((call) => Object.values(call.args[0].input.RequestItems ?? {}).flat());
    expect(deleted).toContainEqual({ DeleteRequest: { Key: projectKeys.upload(7, SECRET) } });
    expect(s3Mock.commandCalls(ListObjectsV2Command).map((call) => call.args[0].input.Prefix)).toContain('projects/7/');
    expect(s3Mock.commandCalls(DeleteObjectsCommand).map((call) => call.args[0].input.Delete?.Objects)).toEqual([[{ Key: objectKey }]]);
  });
});
