import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/platform/config';
import type { ApiContext, ApiRequest, UploadedFile } from '../../shared/platform/http/context';
import { ParamError, PayloadTooLargeError } from '../../shared/platform/http/errors';
import { collectParams } from '../../shared/platform/middleware/collect-params';

const BOUNDARY = 'test-boundary-7MA4YWxkTrZu0gW';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** Internal: one part of a hand-written multipart body. */
function part(disposition: string, content: string | Buffer, headers: string[] = []): Buffer {
  const head = [`Content-Disposition: ${disposition}`, ...headers].join('\r\n');
  return Buffer.concat([Buffer.from(`--${BOUNDARY}\r\n${head}\r\n\r\n`), Buffer.from(content), Buffer.from('\r\n')]);
}

/** Internal: a hand-written multipart body, closed by the final boundary. */
const multipart = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]);

/** Internal: the body and content type undici's `FormData` serialisation sends (what fetch, gitbeaker and browsers send). */
async function serialised(form: FormData): Promise<{ raw: Buffer; contentType: string }> {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { raw: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

/** Internal: the request the middleware sees: headers lower-cased, the body base64-encoded as API Gateway sends it. */
function apiRequest(raw: Buffer, contentType: string, query: Record<string, string[]> | null = null): ApiRequest {
  const event = {
    headers: { 'content-type': contentType },
    multiValueQueryStringParameters: query,
    queryStringParameters: null,
    body: raw.toString('base64'),
    isBase64Encoded: true,
  } as unknown as APIGatewayProxyEvent;
  return { event, context: { pathParams: {} } as unknown as ApiContext, response: undefined, error: undefined, internal: {} };
}

/** Internal: runs the middleware and returns what it collected. */
async function collect(raw: Buffer, contentType = MULTIPART, query: Record<string, string[]> | null = null) {
  const request = apiRequest(raw, contentType, query);
  await collectParams().before!(request);
  return { params: request.context.rawParams, files: request.context.files };
}

/** Internal: runs the middleware and returns the error it threw (fails the test if nothing is thrown). */
async function failure(raw: Buffer, contentType = MULTIPART): Promise<unknown> {
  try {
    await collect(raw, contentType);
  } catch (error) {
    return error;
  }
  throw new Error('expected collectParams to throw');
}

afterEach(() => {
  delete process.env.MAX_BODY_BYTES;
  resetConfig();
});

describe('collectParams: multipart/form-data fields', () => {
  it('collects `name[]` fields into an array in order and keeps the last of a repeated plain name', async () => {
    // Prepare
    const raw = multipart(
      part('form-data; name="labels[]"', 'bug'),
      part('form-data; name="title"', 'first'),
      part('form-data; name="labels[]"', 'ui'),
      part('form-data; name="title"', 'second'),
      part('form-data; name="labels[]"', ''),
    );

    // Act
    const { params, files } = await collect(raw);

    // Assess
    expect(params).toEqual({ labels: ['bug', 'ui', ''], title: 'second' });
    expect(files).toEqual({});
  });

  it('reads names, values and file names as UTF-8, keeping line breaks in values', async () => {
    // Prepare
    const raw = multipart(
      part('form-data; name="déscription"', 'héllo ☃\r\nsecond line'),
      part('form-data; name="file"; filename="ünïcödé.txt"', 'x', ['Content-Type: text/plain']),
    );

    // Act
    const { params, files } = await collect(raw);

    // Assess
    expect(params['déscription']).toBe('héllo ☃\r\nsecond line');
    expect(files.file.filename).toBe('ünïcödé.txt');
  });

  it('treats a part typed application/octet-stream without a file name as a field', async () => {
    // Prepare
    const raw = multipart(part('form-data; name="description"', 'plain bytes', ['Content-Type: application/octet-stream']));

    // Act
    const { params, files } = await collect(raw);

    // Assess
    expect(params).toEqual({ description: 'plain bytes' });
    expect(files).toEqual({});
  });

  it('reads a field of several MiB whole (busboy would truncate fields at 1 MiB by default)', async () => {
    // Prepare
    const description = 'x'.repeat(3 * 1024 * 1024);
    const raw = multipart(part('form-data; name="description"', description));

    // Act
    const { params } = await collect(raw);

    // Assess
    expect(params.description).toBe(description);
  });

  it('answers an empty form with no parameters', async () => {
    // Act
    const { params, files } = await collect(multipart());

    // Assess
    expect(params).toEqual({});
    expect(files).toEqual({});
  });

  it('lets body fields win over query parameters of the same name', async () => {
    // Prepare
    const raw = multipart(part('form-data; name="title"', 'from body'));

    // Act
    const { params } = await collect(raw, MULTIPART, { title: ['from query'], page: ['2'] });

    // Assess
    expect(params).toEqual({ title: 'from body', page: '2' });
  });
});

describe('collectParams: bracketed names, gathered as Rack gathers them', () => {
  const FORM = 'application/x-www-form-urlencoded';
  const form = (text: string) => collect(Buffer.from(text), FORM);

  it('nests hashes, appends arrays and fills arrays of hashes, from a query string, a form or a JSON body alike', async () => {
    // Act
    const fromForm = await form(
      'position[base_sha]=a&position[line_range][start][new_line]=3&position[line_range][end][new_line]=4' +
        '&assets[links][][name]=one&assets[links][][url]=u1&assets[links][][name]=two&assets[links][][url]=u2&labels[]=x&labels[]=y',
    );
    const fromQuery = await collect(Buffer.alloc(0), FORM, { 'filter[environment_scope]': ['production'], 'not[labels][]': ['bug'] });
    // A JSON body arrives parsed (jsonBody, before).
    const json = apiRequest(Buffer.alloc(0), 'application/json');
    Object.assign(json.event, { body: { ref: 'main', variables: { A: '1' }, 'variables[B]': '2' }, isBase64Encoded: false });
    await collectParams().before!(json);
    const fromJson = { params: json.context.rawParams };

    // Assess
    expect(fromForm.params).toEqual({
      position: { base_sha: 'a', line_range: { start: { new_line: '3' }, end: { new_line: '4' } } },
      assets: { links: [{ name: 'one', url: 'u1' }, { name: 'two', url: 'u2' }] },
      labels: ['x', 'y'],
    });
    expect(fromQuery.params).toEqual({ filter: { environment_scope: 'production' }, not: { labels: ['bug'] } });
    expect(fromJson.params).toEqual({ ref: 'main', variables: { A: '1', B: '2' } });
  });

  it('drops names that would reach an object prototype, and keeps names of its properties as plain keys', async () => {
    // Act
    const { params } = await form('__proto__[polluted]=1&a[__proto__][polluted]=2&b[][__proto__]=3&constructor[x]=4&toString[]=5&c=6');

    // Assess
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(params).toEqual({ a: {}, b: [{}], constructor: { x: '4' }, toString: ['5'], c: '6' });
  });

  it('answers 400 to a name used both as a value and as a hash or an array, and to names nested too deeply', async () => {
    // Act
    const errors = await Promise.all(
      ['a=1&a[b]=2', 'a[b]=1&a[]=2', 'a[]=1&a[b]=2', `a${'[b]'.repeat(40)}=1`].map((text) => form(text).then(() => undefined, (error: unknown) => error)),
    );

    // Assess
    expect(errors.map((error) => (error instanceof ParamError ? error.body : error))).toEqual([
      { error: 'a is invalid' },
      { error: 'a is invalid' },
      { error: 'a is invalid' },
      { error: 'params are nested too deeply' },
    ]);
  });
});

describe('collectParams: multipart/form-data files', () => {
  it('puts a file in the files and in the parameters, byte for byte, beside the fields', async () => {
    // Prepare: bytes that look like line breaks and a boundary must survive.
    const data = Buffer.concat([Buffer.from([0, 255, 13, 10, 45, 45]), Buffer.from(`--${BOUNDARY.slice(0, 10)}\r\n`), Buffer.alloc(70_000, 7)]);
    const raw = multipart(
      part('form-data; name="title"', 'Screenshot'),
      part('form-data; name="file"; filename="shot.png"', data, ['Content-Type: image/png']),
      part('form-data; name="tags[]"', 'a'),
    );

    // Act
    const { params, files } = await collect(raw);

    // Assess
    const expected: UploadedFile = { filename: 'shot.png', contentType: 'image/png', data };
    expect(files).toEqual({ file: expected });
    expect(params).toEqual({ title: 'Screenshot', file: expected, tags: ['a'] });
    expect(files.file.data.equals(data)).toBe(true);
  });

  it('gives a file part without a Content-Type the type text/plain (RFC 7578)', async () => {
    // Prepare
    const raw = multipart(part('form-data; name="file"; filename="notes.md"', '# notes'));

    // Act
    const { files } = await collect(raw);

    // Assess
    expect(files.file).toEqual({ filename: 'notes.md', contentType: 'text/plain', data: Buffer.from('# notes') });
  });

  it('keeps a path in the file name (the uploads feature sanitises it)', async () => {
    // Prepare
    const raw = multipart(part('form-data; name="file"; filename="C:\\\\docs\\\\a.txt"', 'a', ['Content-Type: text/plain']));

    // Act
    const { files } = await collect(raw);

    // Assess
    expect(files.file.filename).toBe('C:\\docs\\a.txt');
  });

  it('keeps the last of two files sent under the same name', async () => {
    // Prepare
    const raw = multipart(
      part('form-data; name="file"; filename="a.txt"', 'a', ['Content-Type: text/plain']),
      part('form-data; name="file"; filename="b.txt"', 'b', ['Content-Type: text/plain']),
    );

    // Act
    const { params, files } = await collect(raw);

    // Assess
    expect(files.file.filename).toBe('b.txt');
    expect(params.file).toBe(files.file);
  });
});

describe('collectParams: what FormData sends is read as the Fetch standard reads it', () => {
  const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 0, 0, 13]);
  const forms: Array<[string, () => FormData]> = [
    ['fields and array fields', () => {
      const form = new FormData();
      form.append('title', 'Release 1.0');
      form.append('labels[]', 'bug');
      form.append('labels[]', 'критично');
      form.append('title', 'Release 1.1');
      return form;
    }],
    ['a file beside fields', () => {
      const form = new FormData();
      form.append('file', new Blob([image], { type: 'image/png' }), 'screen shot.png');
      form.append('description', 'line one\nline two');
      return form;
    }],
    ['names and file names with quotes and line breaks (sent as %22, %0D, %0A)', () => {
      const form = new FormData();
      form.append('a"b\nc', 'value');
      form.append('file', new Blob(['x'], { type: 'text/plain' }), 'say "hi"\r\n.txt');
      return form;
    }],
    ['a file without a type and an empty file', () => {
      const form = new FormData();
      form.append('file', new Blob(['bytes']), 'data.bin');
      form.append('empty', new Blob([], { type: 'text/plain' }), 'empty.txt');
      return form;
    }],
  ];

  it.each(forms)('%s', async (_name, build) => {
    // Prepare
    const { raw, contentType } = await serialised(build());
    const reference = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
    const expected: Record<string, unknown> = {};
    for (const [name, value] of reference.entries()) {
      const entry =
        typeof value === 'string'
          ? value
          : { filename: value.name, contentType: value.type, data: Buffer.from(await value.arrayBuffer()) };
      if (name.endsWith('[]')) ((expected[name.slice(0, -2)] as unknown[]) ??= []).push(entry);
      else expected[name] = entry;
    }

    // Act
    const { params } = await collect(raw, contentType);

    // Assess
    expect(params).toEqual(expected);
  });
});

describe('collectParams: malformed multipart bodies', () => {
  const fields = multipart(part('form-data; name="title"', 'x'));
  const cases: Array<[string, Buffer, string]> = [
    ['no boundary in the Content-Type', fields, 'multipart/form-data'],
    ['an empty boundary', fields, 'multipart/form-data; boundary='],
    ['a boundary the body does not use', fields, 'multipart/form-data; boundary=other'],
    ['no closing boundary', part('form-data; name="title"', 'x'), MULTIPART],
    ['a body that is not multipart at all', Buffer.from('title=x'), MULTIPART],
    ['a malformed part header', Buffer.from(`--${BOUNDARY}\r\nContent-Disposition form-data\r\n\r\nx\r\n--${BOUNDARY}--\r\n`), MULTIPART],
    ['a part without a name', multipart(part('form-data', 'x')), MULTIPART],
    ['a file part without a name', multipart(part('form-data; filename="a.txt"', 'x')), MULTIPART],
  ];

  it.each(cases)('answers 400 "body is invalid" to %s', async (_name, raw, contentType) => {
    // Act
    const error = await failure(raw, contentType);

    // Assess
    expect(error).toBeInstanceOf(ParamError);
    expect(error).toMatchObject({ statusCode: 400, body: { error: 'body is invalid' } });
  });
});

describe('collectParams: multipart bodies over the limits', () => {
  it('answers 413 to a body over MAX_BODY_BYTES, before parsing it', async () => {
    // Prepare
    process.env.MAX_BODY_BYTES = '1024';
    resetConfig();
    const raw = multipart(part('form-data; name="file"; filename="big.bin"', Buffer.alloc(1024, 1), ['Content-Type: application/octet-stream']));

    // Act
    const error = await failure(raw);

    // Assess
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error).toMatchObject({ statusCode: 413, body: { message: '413 Request Entity Too Large' } });
  });

  it('accepts a body of exactly MAX_BODY_BYTES', async () => {
    // Prepare
    const raw = multipart(part('form-data; name="file"; filename="a.bin"', Buffer.alloc(512, 1), ['Content-Type: application/octet-stream']));
    process.env.MAX_BODY_BYTES = String(raw.length);
    resetConfig();

    // Act
    const { files } = await collect(raw);

    // Assess
    expect(files.file.data).toHaveLength(512);
  });

  it('answers 413 to more than 128 files (Rack\'s limit)', async () => {
    // Prepare
    const raw = multipart(...Array.from({ length: 129 }, (_, i) => part(`form-data; name="f${i}"; filename="${i}.txt"`, 'x', ['Content-Type: text/plain'])));

    // Act
    const error = await failure(raw);

    // Assess
    expect(error).toBeInstanceOf(PayloadTooLargeError);
  });

  it('answers 413 to more than 4096 parts (Rack\'s limit)', async () => {
    // Prepare
    const raw = multipart(...Array.from({ length: 4097 }, (_, i) => part(`form-data; name="f${i}"`, 'x')));

    // Act
    const error = await failure(raw);

    // Assess
    expect(error).toBeInstanceOf(PayloadTooLargeError);
  });

  it('accepts 128 files and 4096 parts', async () => {
    // Prepare
    const files = Array.from({ length: 128 }, (_, i) => part(`form-data; name="f${i}"; filename="${i}.txt"`, 'x', ['Content-Type: text/plain']));
    const fields = Array.from({ length: 4096 - 128 }, (_, i) => part(`form-data; name="v${i}"`, 'x'));

    // Act
    const collected = await collect(multipart(...files, ...fields));

    // Assess
    expect(Object.keys(collected.files)).toHaveLength(128);
    expect(Object.keys(collected.params)).toHaveLength(4096);
  });
});
