/**
 * The packages feature's keys stay inside the key space it declares (`keySpace` in
 * `shared/packages/store/keys.ts`), and its store answers results: a package whose name and
 * version another upload took is `'name_taken'` (the caller joins that package), a project gone
 * `'project_gone'`, a file added to a package deleted meanwhile `'package_gone'`.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it } from 'vitest';
import type { Collection, Key } from '../../shared/platform/dynamo/keys';
import { keySpace, packageCollections, packageIndexKeys, packageKeys } from '../../shared/packages/store/keys';
import { insertFile, insertPackageWithFile, type Package, type PackageFile } from '../../shared/packages/store/packages';
import { describeKeySpace } from '../support/key-space';
import { cancelled, useMockedTable, writerOperations } from '../support/mocked-table';

const ddbMock = useMockedTable('package-keys-test');

const tableKeys = {
  package: [() => packageKeys.package(7, 3)],
  nameClaim: [() => packageKeys.nameClaim(7, 'generic', 'app', '1.2.3')],
  file: [() => packageKeys.file(7, 3, 9)],
} satisfies Record<keyof typeof packageKeys, Array<() => Key>>;

const indexKeys = {
  orders: () => packageIndexKeys.orders(7, 'default', 'app', '1.2.3', 3),
  fileByName: () => packageIndexKeys.fileByName(3, 'app.tgz', 9),
} satisfies Record<keyof typeof packageIndexKeys, () => Record<string, string>>;

const collections = {
  packages: [() => packageCollections.packages(7, 'default', 'created_at'), () => packageCollections.packages(7, 'hidden', 'name', 'ap'), () => packageCollections.packages(7, 'default', 'version')],
  projectPackages: () => packageCollections.projectPackages(7),
  files: () => packageCollections.files(7, 3),
  filesByName: [() => packageCollections.filesByName(3), () => packageCollections.filesByName(3, 'app.tgz')],
} satisfies Record<keyof typeof packageCollections, (() => Collection) | Array<() => Collection>>;

const at = '2026-01-02T00:00:00.000Z';
const pkg: Package = { id: 3, projectId: 7, name: 'app', version: '1.2.3', packageType: 'generic', status: 'default', creatorId: 1, jobId: null, createdAt: at, updatedAt: at, lastDownloadedAt: null };
const file: PackageFile = { id: 9, packageId: 3, projectId: 7, fileName: 'app.tgz', size: 1, sha256: 'a'.repeat(64), jobId: null, createdAt: at, updatedAt: at };

describeKeySpace(
  {
    feature: 'packages',
    keySpace,
    keys: { name: 'packageKeys', builders: packageKeys, samples: tableKeys },
    indexKeys: { name: 'packageIndexKeys', builders: packageIndexKeys, samples: indexKeys },
    collections: { name: 'packageCollections', builders: packageCollections, samples: collections },
    partitions: ['PROJECT#'],
    outside: { PK: 'PROJECT#7', SK: 'WIDGET#000000000001' },
  },
  () => {
    it('writes a package with its name claim and first file, each conditioned on not existing', async () => {
      // Prepare
      ddbMock.on(TransactWriteCommand).resolves({});
      // Act
      await insertPackageWithFile(pkg, file);
      // Assess
      const [project, claim, put, fileput] = writerOperations(ddbMock.commandCalls(TransactWriteCommand)[0].args[0].input);
      expect(project.ConditionCheck).toBeDefined();
      expect(claim.Put).toMatchObject({ ConditionExpression: 'attribute_not_exists(PK)', Item: { SK: 'PACKAGE_NAME#generic#app#1.2.3', packageId: 3 } });
      expect(put.Put).toMatchObject({ Item: { PK: 'PROJECT#7', SK: 'PACKAGE#000000000003', GSI1PK: 'PACKAGES#7#default', GSI2SK: 'app#000000000003', GSI3SK: '1.2.3#000000000003' } });
      expect(fileput.Put).toMatchObject({ Item: { SK: 'PACKAGE_FILE#000000000003#000000000009', GSI4PK: 'PACKAGE_FILES#3', GSI4SK: 'app.tgz#000000000009' } });
    });

    it.each([
      ['project_gone', ['ConditionalCheckFailed', 'None', 'None', 'None']],
      ['name_taken', ['None', 'ConditionalCheckFailed', 'None', 'None']],
    ])('answers %s when that condition of a new package fails', async (result, codes) => {
      ddbMock.on(TransactWriteCommand).rejects(cancelled(codes));
      await expect(insertPackageWithFile(pkg, file)).resolves.toBe(result);
    });

    it('answers package_gone when a file joins a package deleted meanwhile', async () => {
      ddbMock.on(TransactWriteCommand).rejects(cancelled(['None', 'ConditionalCheckFailed', 'None']));
      await expect(insertFile(pkg, file)).resolves.toBe('package_gone');
    });
  },
);
