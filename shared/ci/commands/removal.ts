/** What a deleted project takes with it: its pipelines, jobs, traces and artifacts, and its CI/CD variables (registered by the composition root). */
import type { Project } from '../../projects';
import { projectPipelines } from '../store/pipelines';
import { deleteProjectVariables } from '../store/variables';
import { deletePipeline } from './pipelines';

export async function removeCiObjects(project: Project): Promise<void> {
  const ids: number[] = [];
  for await (const pipeline of projectPipelines(project.id)) ids.push(pipeline.id);
  for (const id of ids) await deletePipeline(id);
  await deleteProjectVariables(project.id);
}
