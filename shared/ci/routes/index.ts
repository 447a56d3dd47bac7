/** The CI feature's HTTP slice, by endpoint group (for the Lambda entries in `functions/`). */
import { environmentRoutes } from './environments';
import { jobRoutes } from './jobs';
import { jobTokenScopeRoutes } from './job-token-scope';
import { pipelineRoutes } from './pipelines';
import { runnerAdminRoutes } from './runners-admin';
import { runnerRoutes } from './runners';
import { scheduleRoutes } from './schedules';
import { triggerRoutes } from './triggers';
import { variableRoutes } from './variables';

export { runnerRequest } from './runner-http';

export const routes = {
  ci_jobs: { ...pipelineRoutes, ...jobRoutes, ...variableRoutes, ...triggerRoutes, ...jobTokenScopeRoutes, ...scheduleRoutes, ...environmentRoutes },
  ci_runners: { ...runnerRoutes, ...runnerAdminRoutes },
};
