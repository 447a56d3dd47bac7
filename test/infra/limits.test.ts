/**
 * The stack stays deployable as the API grows: the synthesized template and the API definition
 * stay under the AWS service limits they meet first, with a margin, and so does a projection of
 * the catalog at three times its size. The figures are printed so that growth can be watched.
 */
import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiGatewayDocument, gatewayResources, type OpenApiDocument } from '../../infra/openapi';
import { ProjectHostingStack } from '../../infra/stack';
import { gatewayRoutes, parseRouteKey, routeCatalog, type GroupName, type RouteSpec } from '../../shared/catalog';

/** AWS's limits (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html, API Gateway and IAM quotas). */
const LIMITS = {
  /** Resources per CloudFormation stack. */
  stackResources: 500,
  /** Template body uploaded through S3 (what `cdk deploy` does), in bytes. */
  templateBytes: 1_048_576,
  /** Resources per REST API (default quota; adjustable). */
  apiResources: 300,
  /** Inline policies of one IAM role together, in characters without whitespace. */
  rolePolicyChars: 10_240,
};
/** The share of a limit a guard allows: room for a release's worth of growth before a limit is met. */
const MARGIN = 0.8;

type Resource = { Type: string; Properties?: Record<string, unknown> };
type CfnTemplate = { Resources: Record<string, Resource> };

let template: CfnTemplate;
let body: OpenApiDocument;

/** The template's size as `cdk synth` writes it (one-space indented JSON). */
const templateBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value, undefined, 1));

/**
 * Internal: a CloudFormation value with its intrinsics replaced by values as long as they get
 * when deployed (generated names and ARNs of a long stack name), for IAM's size count.
 */
function deployedLength(value: unknown): unknown {
  const PSEUDO: Record<string, string> = {
    'AWS::Partition': 'aws-us-gov',
    'AWS::Region': 'ap-southeast-5',
    'AWS::AccountId': '123456789012',
    'AWS::URLSuffix': 'amazonaws.com.cn',
    'AWS::StackName': 'x'.repeat(64),
  };
  if (Array.isArray(value)) return value.map(deployedLength);
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  if ('Ref' in object) return PSEUDO[object.Ref as string] ?? 'n'.repeat(128);
  if ('Fn::GetAtt' in object) return 'a'.repeat(200);
  if ('Fn::Join' in object) {
    const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
    return parts.map((part) => String(deployedLength(part))).join(separator);
  }
  if ('Fn::Sub' in object) {
    const body = [object['Fn::Sub']].flat()[0] as string;
    return body.replace(/\$\{([^}!]+)\}/g, (_, name: string) => PSEUDO[name] ?? 'a'.repeat(200));
  }
  return Object.fromEntries(Object.entries(object).map(([key, child]) => [key, deployedLength(child)]));
}

/** Internal: the routes of the catalog as deployed, three times over: each path also under two new roots. */
function tripledRoutes(): RouteSpec[] {
  return gatewayRoutes().flatMap((route) => [
    route,
    ...['twice', 'thrice'].map((copy) =>
      parseRouteKey(route.group, `${route.method} ${route.path === '/:path+' ? `/${copy}/:path+` : `/${copy}${route.path}`}`),
    ),
  ]);
}

function figure(name: string, value: number, limit: number): void {
  console.log(`${name.padEnd(44)} ${String(value).padStart(9)} of ${limit} (${((100 * value) / limit).toFixed(1)}%)`);
}

beforeAll(() => {
  // Prepare: the deployed feature flags; bundling skipped (its assets do not change the template's shape).
  const { context } = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };
  const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
  template = Template.fromStack(new ProjectHostingStack(app, 'ProjectHosting')).toJSON() as CfnTemplate;
  const [api] = Object.values(template.Resources).filter((resource) => resource.Type === 'AWS::ApiGateway::RestApi');
  body = api.Properties!.Body as OpenApiDocument;
});

describe('service limits', () => {
  it('keeps the stack well under 500 CloudFormation resources', () => {
    // Act
    const count = Object.keys(template.Resources).length;

    // Assess
    figure('CloudFormation resources', count, LIMITS.stackResources);
    expect(count).toBeLessThan(LIMITS.stackResources * MARGIN);
  });

  it('keeps the template well under the 1 MB CloudFormation accepts', () => {
    // Act
    const bytes = templateBytes(template);

    // Assess
    figure('template bytes', bytes, LIMITS.templateBytes);
    figure('  of which the API definition (Body)', templateBytes(body), LIMITS.templateBytes);
    expect(bytes).toBeLessThan(LIMITS.templateBytes * MARGIN);
  });

  it('keeps the REST API well under 300 API Gateway resources', () => {
    // Act
    const count = gatewayResources(Object.keys(body.paths)).length;

    // Assess
    figure('API Gateway resources', count, LIMITS.apiResources);
    expect(count).toBeLessThan(LIMITS.apiResources * MARGIN);
  });

  it("keeps every role's inline policies well under IAM's 10,240 characters", () => {
    // Prepare
    const policies = Object.values(template.Resources).filter((resource) => resource.Type === 'AWS::IAM::Policy');
    const roles = Object.entries(template.Resources).filter(([, resource]) => resource.Type === 'AWS::IAM::Role');

    // Act
    const sizes = roles.map(([id, role]) => {
      const documents = [
        ...((role.Properties?.Policies ?? []) as { PolicyDocument: unknown }[]).map((policy) => policy.PolicyDocument),
        ...policies
          .filter((policy) => (policy.Properties?.Roles as unknown[]).some((ref) => JSON.stringify(ref) === JSON.stringify({ Ref: id })))
          .map((policy) => policy.Properties!.PolicyDocument),
      ];
      return [id, documents.reduce<number>((sum, document) => sum + JSON.stringify(deployedLength(document)).length, 0)] as const;
    });

    // Assess
    const [largestRole, largest] = sizes.reduce((a, b) => (b[1] > a[1] ? b : a));
    figure(`largest role policy (${largestRole.slice(0, 24)}…)`, largest, LIMITS.rolePolicyChars);
    for (const [id, size] of sizes) expect(size, id).toBeLessThan(LIMITS.rolePolicyChars * MARGIN);
  });

  it('stays under the limits with three times the routes and endpoint groups', () => {
    // Prepare: what one endpoint group costs today (function, role, policy, log group, permission).
    const groups = Object.keys(routeCatalog) as GroupName[];
    const resources = Object.keys(template.Resources).length;
    const perGroup = Object.entries(template.Resources).filter(([id]) => /^FunctionsUsers/.test(id));
    const tripled = apiGatewayDocument(tripledRoutes(), { title: 'T', description: 'D', integrationUri: () => ({ 'Fn::Sub': 'x'.repeat(180) }) });

    // Act
    const projectedResources = resources + 2 * groups.length * perGroup.length;
    const projectedBytes = templateBytes(template) - templateBytes(body) + templateBytes(tripled) + 2 * groups.length * templateBytes(perGroup);
    const projectedApiResources = gatewayResources(Object.keys(tripled.paths)).length;

    // Assess
    figure('3x: CloudFormation resources', projectedResources, LIMITS.stackResources);
    figure('3x: template bytes', projectedBytes, LIMITS.templateBytes);
    figure('3x: API Gateway resources (upper bound)', projectedApiResources, LIMITS.apiResources);
    expect(perGroup.length).toBeGreaterThanOrEqual(4);
    expect(projectedResources).toBeLessThan(LIMITS.stackResources);
    expect(projectedBytes).toBeLessThan(LIMITS.templateBytes);
    expect(projectedApiResources).toBeLessThan(LIMITS.apiResources);
  });
});
