/**
 * Every paginated list of the API and the schema of its items: the one table
 * the client, the local server and the tests share.
 */
import type { z } from 'zod';
import { Reference, Study, FlatStudy, WriteStudy, WriteReference } from './study.js';
import { Group, Individual, FlatGroupCharacteristica, FlatIndividualCharacteristica } from './subjects.js';
import { Intervention, FlatIntervention } from './interventions.js';
import { Output, FlatOutput } from './outputs.js';
import { Subset, DataPoint, FlatTimecourse } from './data.js';
import { InfoNode, DataFile } from './meta.js';

export const RESOURCES = {
  studies: Study,
  references: Reference,
  groups: Group,
  individuals: Individual,
  interventions: Intervention,
  outputs: Output,
  subsets: Subset,
  info_nodes: InfoNode,
  'pkdata/studies': FlatStudy,
  'pkdata/groups': FlatGroupCharacteristica,
  'pkdata/individuals': FlatIndividualCharacteristica,
  'pkdata/interventions': FlatIntervention,
  'pkdata/outputs': FlatOutput,
  'pkdata/data': DataPoint,
  'pkdata/timecourses': FlatTimecourse,
  _studies: WriteStudy,
  _references: WriteReference,
  _datafiles: DataFile,
} as const satisfies Record<string, z.ZodType>;

/** A list path under /api/v1/ (without slashes), e.g. `pkdata/outputs`. */
export type ResourceName = keyof typeof RESOURCES;
/** The parsed item type of a list. */
export type ResourceItem<R extends ResourceName> = z.infer<(typeof RESOURCES)[R]>;

export const RESOURCE_NAMES = Object.keys(RESOURCES) as ResourceName[];

/** Detail routes look items up by sid for these lists, by integer id for the others (PK-DB API notes §0). */
export const DETAIL_BY_SID: ReadonlySet<ResourceName> = new Set<ResourceName>(['studies', 'references', 'info_nodes', '_studies', '_references']);
