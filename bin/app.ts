#!/usr/bin/env node
import { App } from 'aws-cdk-lib';
import { ProjectHostingStack } from '../infra/stack';

const app = new App();
new ProjectHostingStack(app, 'ProjectHosting');
