/**
 * What a deleted project takes with it: its pipelines, jobs, traces and artifacts, its CI/CD
 * variables, its pipeline trigger tokens, its pipeline schedules, its environments and deployments; what a deleted group takes: its CI/CD variables (both registered by the composition root).
 */
import type { Project } from '../../projects';
import { deleteProjectEnvironments } from '../store/environments';
import { projectPipelines } from '../store/pipelines';
import { deleteRefs } from '../store/refs';
import { deleteSchedules } from '../store/schedules';
import { deleteTriggers } from '../store/triggers';
import { deleteVariables } from '../store/variables';
import { deletePipeline } from './pipelines';

export async function removeCiObjects(project: Project): Promise<void> {
  // The schedules first: none creates a pipeline while the project's pipelines are deleted.
  await deleteSchedules(project.id);
  // The refs first (no latest pipeline handed over as each is deleted), and again after a pipeline finishing meanwhile.
  await deleteRefs(project.id);
  const ids: number[] = [];
  for await (const pipeline of projectPipelines(project.id)) ids.push(pipeline.id);
  for (const id of ids) await deletePipeline(id);
  await deleteVariables({ kind: 'project', id: project.id });
  await deleteTriggers(project.id);
  await deleteProjectEnvironments(project.id);
  await deleteRefs(project.id);
}

/** What a deleted group takes with it (the group is marked `deleting`: no variable is added meanwhile). */
export async function removeGroupCiObjects(groupId: number): Promise<void> {
  await deleteVariables({ kind: 'group', id: groupId });
}
