/**
 * A pipeline's name (GitLab's `Ci::PipelineMetadata#name`): what `workflow:name` and
 * `PUT /projects/:id/pipelines/:pipeline_id/metadata` may set. Small on purpose: the routes load it
 * at cold start, the configuration's parser (loaded lazily) too.
 */

/** The most characters a name has (GitLab's `Entry::Workflow` and `Ci::PipelineMetadata` validations). */
export const PIPELINE_NAME_MAX = 255;

/**
 * A pipeline's name from its expanded `workflow:name`: stripped, none when blank, cut at
 * {@link PIPELINE_NAME_MAX} characters (GitLab does not create a pipeline whose expanded name is
 * longer, with no error shown, gitlab-org/gitlab#567177; here it is cut instead).
 */
export function nameFromWorkflow(expanded: string): string | undefined {
  const name = expanded.trim();
  return name ? [...name].slice(0, PIPELINE_NAME_MAX).join('').trimEnd() : undefined;
}

/** Why a name given through the API is refused, as GitLab's model validation says it; undefined when it is fine. */
export function invalidName(name: string): string | undefined {
  if (name.length === 0) return 'Name is too short (minimum is 1 character)';
  if ([...name].length > PIPELINE_NAME_MAX) return `Name is too long (maximum is ${PIPELINE_NAME_MAX} characters)`;
  return undefined;
}
