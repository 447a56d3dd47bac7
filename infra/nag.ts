/**
 * cdk-nag (AWS Solutions pack) for the service: the checks every synthesis runs, and the helpers
 * the constructs use to acknowledge a finding where the deliberate choice behind it is made.
 *
 * `bin/app.ts` registers {@link AwsSolutionsChecks} as a CDK validation plugin, so `cdk synth`
 * (the last step of `npm test`) fails on any finding, error or warning, that is not acknowledged;
 * `test/infra/nag.test.ts` runs the same checks as a unit test and lists the findings.
 *
 * Every acknowledgment carries its reason in code, next to what causes it (cdk-nag v3 uses CDK's
 * own `Validations.of(construct).acknowledge`; one acknowledgment covers the construct and
 * everything under it). A finding that names a resource (`AwsSolutions-IAM5[Resource::<Table.Arn>/index/*]`)
 * is acknowledged with the logical ID computed here, never written by hand.
 */
import { CfnResource, Stack, Validations, type App, type Stage } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

export { AwsSolutionsChecks };

/**
 * Registers the AWS Solutions checks on an app: synthesis fails on any unacknowledged finding.
 *
 * @example
 * const app = new App();
 * new ProjectHostingStack(app, 'ProjectHosting');
 * applyNagChecks(app);
 */
export function applyNagChecks(app: App | Stage): AwsSolutionsChecks {
  const checks = new AwsSolutionsChecks(app, { verbose: true });
  Validations.of(app).addPlugins(checks);
  return checks;
}

/**
 * Acknowledges cdk-nag findings on a construct and everything under it, each with its reason.
 *
 * @example
 * acknowledge(secret, { 'AwsSolutions-SMG4': 'Rotating the key would make every sealed secret unreadable.' });
 */
export function acknowledge(scope: IConstruct, findings: Readonly<Record<string, string>>): void {
  for (const [id, reason] of Object.entries(findings)) Validations.of(scope).acknowledge({ id, reason });
}

/**
 * How cdk-nag names a resource's ARN inside a finding (`<DataTableFDBAD0F2.Arn>`), for
 * acknowledging `AwsSolutions-IAM5[Resource::<...>/*]`. Undefined for an imported resource (it has
 * no logical ID: its ARN is a literal, which cdk-nag prints as is).
 */
export function nagArnOf(resource: IConstruct): string | undefined {
  const cfn = resource.node.defaultChild ?? resource;
  if (!CfnResource.isCfnResource(cfn)) return undefined;
  return `<${Stack.of(cfn).getLogicalId(cfn)}.Arn>`;
}

/** The AWS managed policy finding of a role (`AwsSolutions-IAM4[Policy::...]`). */
export function managedPolicyFinding(policyName: string): string {
  return `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/${policyName}]`;
}
