/** The `scope` filter of the jobs lists: one status or an array of them; anything else is a 400. */
import * as z from 'zod';
import { p } from '../../platform/http/params';
import { JOB_SCOPES, type JobStatus } from '../status';

export const scopeParam = p.array(z.enum(JOB_SCOPES));

export const scopeFrom = (scope: readonly string[] | undefined): JobStatus[] | undefined => (scope && scope.length > 0 ? (scope as JobStatus[]) : undefined);
