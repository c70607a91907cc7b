/** The manifest files of an export, by name, rendered from one plan (pure). */
import { headersFile, redirectsFile } from './netlify.ts';
import { nginxConf } from './nginx.ts';
import { checkPlan, type ExportPlan, type ManifestName } from './plan.ts';
import { s3MetadataFile } from './s3.ts';

export function manifests(plan: ExportPlan): { name: ManifestName; text: string }[] {
  checkPlan(plan);
  return [
    { name: '_headers', text: headersFile(plan) },
    { name: '_redirects', text: redirectsFile(plan) },
    { name: 's3-metadata.json', text: s3MetadataFile(plan) },
    { name: 'nginx.conf', text: nginxConf(plan) },
  ];
}
