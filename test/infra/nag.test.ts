/**
 * cdk-nag's AWS Solutions checks pass on the stack as deployed: every finding is either fixed or
 * acknowledged in code with its reason (`infra/nag.ts`). The same checks run in `cdk synth`
 * (`bin/app.ts`), which fails on any unacknowledged finding; this test lists them.
 *
 * cdk-nag 3 reports through CDK's validation plugins (`Validations.of(app).addPlugins(...)`), not
 * through annotations: `validateScope` returns the findings, errors and warnings alike.
 */
import { readFileSync } from 'node:fs';
import { App, Stack, Validations, type PolicyValidationPluginReport } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyNagChecks, AwsSolutionsChecks } from '../../infra/nag';
import { ProjectHostingStack } from '../../infra/stack';

const { context } = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };

/** Internal: the stack as `cdk synth` builds it (bundling skipped: assets do not change what is checked). */
function deployedApp(extra: Record<string, unknown> = {}): App {
  const app = new App({ context: { ...context, ...extra, 'aws:cdk:bundling-stacks': [] } });
  new ProjectHostingStack(app, 'ProjectHosting');
  return app;
}

/** Internal: the findings of a report, one line each: `error AwsSolutions-S1 at ProjectHosting/Storage/Bucket/Resource`. */
function findings(report: PolicyValidationPluginReport): string[] {
  return report.violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => `${violation.severity ?? 'error'} ${violation.ruleName} at ${resource.constructPath ?? resource.resourceLogicalId}`),
  );
}

/** Internal: every acknowledgment recorded under a scope, by construct path (CDK stores the ids as `Annotation::<id>`). */
function acknowledgments(scope: IConstruct): { path: string; id: string; reason: string }[] {
  return scope.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({ path: construct.node.path, id: id.replace(/^annotation::/i, ''), reason }))),
  );
}

let app: App;
let report: PolicyValidationPluginReport;

beforeAll(() => {
  // Prepare
  app = deployedApp();
  app.synth();

  // Act
  report = new AwsSolutionsChecks().validateScope(app);
});

describe('cdk-nag AWS Solutions checks', () => {
  it('finds no unacknowledged error or warning in the stack', () => {
    // Assess
    expect(findings(report)).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('finds none either with a WAF web ACL associated (no APIG3 acknowledgment needed)', () => {
    // Prepare
    const protectedApp = deployedApp({ wafWebAclArn: 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/gitlab/abc' });

    // Act
    const protectedReport = new AwsSolutionsChecks().validateScope(protectedApp);

    // Assess
    expect(findings(protectedReport)).toEqual([]);
    expect(acknowledgments(protectedApp).map((ack) => ack.id)).not.toContain('AwsSolutions-APIG3');
  });

  it('justifies every acknowledgment with a reason', () => {
    // Act
    const acks = acknowledgments(app);

    // Assess
    expect(acks.length).toBeGreaterThan(0);
    for (const ack of acks) {
      expect(ack.id, ack.path).toMatch(/^AwsSolutions-[A-Z]+\d+(\[.+\])?$/);
      expect(ack.reason.length, `${ack.id} at ${ack.path}`).toBeGreaterThanOrEqual(40);
    }
  });

  it('acknowledges nothing at the stack or app level: each where its cause is', () => {
    // Act
    const broad = acknowledgments(app).filter((ack) => ack.path === '' || ack.path === 'ProjectHosting');

    // Assess
    expect(broad).toEqual([]);
  });

  it('acknowledges only deliberate choices, never the data guarantees (PITR, TLS, public access, logging of the data bucket)', () => {
    // Act
    const ids = new Set(acknowledgments(app).map((ack) => ack.id));

    // Assess
    for (const id of ['AwsSolutions-DDB3', 'AwsSolutions-S10', 'AwsSolutions-S2', 'AwsSolutions-APIG1', 'AwsSolutions-APIG6', 'AwsSolutions-SNS3']) {
      expect(ids.has(id), id).toBe(false);
    }
    const s1 = acknowledgments(app).filter((ack) => ack.id === 'AwsSolutions-S1');
    expect(s1.map((ack) => ack.path)).toEqual(['ProjectHosting/Storage/AccessLogs']);
  });

  it('makes synthesis fail on a finding nobody acknowledged', () => {
    // Prepare: a bucket without TLS enforcement or access logs.
    const faulty = new App();
    new s3.Bucket(new Stack(faulty, 'Faulty'), 'Bucket');
    applyNagChecks(faulty);

    // Act
    const act = () => faulty.synth();

    // Assess
    expect(act).toThrow(/AwsSolutions-S1|AwsSolutions-S10|Validation failed/);
  });
});
