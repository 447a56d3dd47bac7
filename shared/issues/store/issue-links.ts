/**
 * Issue links (GitLab's `issue_links`): a relation between two issues, possibly in two projects,
 * stored as two items with the same data, one in each issue's partition
 * (`issueKeys.issueLink`), so each issue reads its links in one range and a pair is linked once:
 * both items are Put `attribute_not_exists` in one transaction, whichever issue asks.
 */
import { tableName } from '../../platform/dynamo/client';
import { entityFields } from '../../platform/dynamo/items';
import { getEntity, isId, queryAll, type Item } from '../../platform/dynamo/query';
import { type TransactItem, transactOr } from '../../platform/dynamo/transactions';
import { projectIsLive } from '../../projects';
import { issueCollections, issueKeys } from './keys';

/** GitLab's link types, as stored (from the source's side). */
export type LinkType = 'relates_to' | 'blocks' | 'is_blocked_by';

/** The type a link has seen from its target: `blocks` there is `is_blocked_by`, and back. */
export const inverseLinkType = (type: LinkType): LinkType => (type === 'blocks' ? 'is_blocked_by' : type === 'is_blocked_by' ? 'blocks' : 'relates_to');

/** A link between the source issue and the target issue (each by project and iid). */
export interface IssueLink {
  /** Global id (sequence `issue_links`). */
  id: number;
  sourceProjectId: number;
  sourceIid: number;
  targetProjectId: number;
  targetIid: number;
  linkType: LinkType;
  createdAt: string;
  updatedAt: string;
}

/** A link as one of its issues sees it: the other issue, and the type from this side. */
export interface LinkSide {
  link: IssueLink;
  otherProjectId: number;
  otherIid: number;
  /** The link type seen from this issue (the inverse on the target's side). */
  linkType: LinkType;
}

const linkFromItem = (item: Item): IssueLink => entityFields(item) as IssueLink;

/** Internal: the two items of a link (one per issue). */
const linkItems = (link: IssueLink): Item[] => [
  { ...issueKeys.issueLink(link.sourceProjectId, link.sourceIid, link.targetProjectId, link.targetIid), type: 'IssueLink', ...link },
  { ...issueKeys.issueLink(link.targetProjectId, link.targetIid, link.sourceProjectId, link.sourceIid), type: 'IssueLink', ...link },
];

/** The side of `link` seen from the issue `projectId`/`iid` (one of its two issues). */
export function sideOf(link: IssueLink, projectId: number, iid: number): LinkSide {
  const fromSource = link.sourceProjectId === projectId && link.sourceIid === iid;
  return fromSource
    ? { link, otherProjectId: link.targetProjectId, otherIid: link.targetIid, linkType: link.linkType }
    : { link, otherProjectId: link.sourceProjectId, otherIid: link.sourceIid, linkType: inverseLinkType(link.linkType) };
}

/** The links of one issue (both directions), oldest first (by id, i.e. creation). */
export async function listIssueLinks(projectId: number, iid: number): Promise<LinkSide[]> {
  if (!isId(iid)) return [];
  const links = (await queryAll(issueCollections.issueLinks(projectId, iid))).map(linkFromItem);
  return links.sort((a, b) => a.id - b.id).map((link) => sideOf(link, projectId, iid));
}

/** One link of the issue by id (either direction), or `undefined`. */
export async function findIssueLink(projectId: number, iid: number, linkId: number): Promise<LinkSide | undefined> {
  if (!isId(linkId)) return undefined;
  return (await listIssueLinks(projectId, iid)).find((side) => side.link.id === linkId);
}

/** The link between two issues, whichever is its source; `undefined` when they are not linked. */
export async function getLinkBetween(projectId: number, iid: number, otherProjectId: number, otherIid: number): Promise<IssueLink | undefined> {
  return getEntity(issueKeys.issueLink(projectId, iid, otherProjectId, otherIid), linkFromItem);
}

/** Why a link was not written. */
export type LinkWriteFailure = 'project_gone' | 'linked';

/**
 * Writes both items of a new link with the system notes of both issues, while both projects are
 * live. `linked` when either item exists (the pair is linked already, in either direction).
 */
export async function insertIssueLink(link: IssueLink, notes: TransactItem[]): Promise<LinkWriteFailure | undefined> {
  const [source, target] = linkItems(link);
  const put = (item: Item): TransactItem => ({ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' } });
  const projects = [...new Set([link.sourceProjectId, link.targetProjectId])];
  return transactOr(
    {
      projects: projects.map((id) => projectIsLive(id)),
      source: put(source),
      target: put(target),
      notes: notes.length > 0 && notes,
    },
    [['projects', 'project_gone']],
    'linked',
  );
}

/**
 * Deletes both items of a link (each conditioned on holding this link's id) with the system
 * notes. `gone` when a racing request deleted it first.
 */
export async function removeIssueLink(link: IssueLink, notes: TransactItem[]): Promise<'gone' | undefined> {
  const del = (key: { PK: string; SK: string }): TransactItem => ({
    Delete: { TableName: tableName(), Key: key, ConditionExpression: 'id = :id', ExpressionAttributeValues: { ':id': link.id } },
  });
  return transactOr(
    {
      source: del(issueKeys.issueLink(link.sourceProjectId, link.sourceIid, link.targetProjectId, link.targetIid)),
      target: del(issueKeys.issueLink(link.targetProjectId, link.targetIid, link.sourceProjectId, link.sourceIid)),
      notes: notes.length > 0 && notes,
    },
    [],
    'gone',
  );
}
