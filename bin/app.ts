#!/usr/bin/env node
import { App } from 'aws-cdk-lib';
import { applyNagChecks } from '../infra/nag';
import { ProjectHostingStack } from '../infra/stack';

const app = new App();
new ProjectHostingStack(app, 'ProjectHosting');
// cdk-nag's AWS Solutions checks: synthesis fails on any finding not acknowledged in code.
applyNagChecks(app);
