// A tracker lander's hosted files. `POST /api/tracker/landers/{id}/files` (an application/zip
// body) replaces them all, `GET …/files` lists them, `GET …/files/content?path=` reads one text file and
// `PUT …/files` `{ path, content }` changes one. Reading needs the lander's `get` permission, changing
// it `update`. The files are served to visitors at `/l/{id}/…` (serve.ts).
import {
  type LanderFile,
  type LanderFileContent,
  type LanderFileList,
  ZLanderFileEdit,
  ZLanderFileQuery,
} from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Actor } from '../auth/actor.js';
import { workspaceOf } from '../auth/workspace.js';
import type { LanderLimits } from '../config.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { authorize } from '../http/guard.js';
import { parseInput } from '../http/parse.js';
import type { LanderFileStore, StoredLanderFile } from '../store/lander-files.js';
import type { Database } from '../store/schema.js';
import { scopeCondition } from '../store/scope.js';
import { isTextFile } from './file-types.js';
import { unpackLander } from './unzip.js';

const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed'];

export function landerPath(lander: string): string {
  return `/l/${encodeURIComponent(lander)}/`;
}

function answerFile(file: StoredLanderFile): LanderFile {
  return { ...file, editable: isTextFile(file.path) };
}

export function landerFileRoutes(
  api: FastifyInstance,
  deps: {
    db: Kysely<Database>;
    files: LanderFileStore;
    limits: LanderLimits;
    /** A lander gained files: routing sends its visitors here from now on. */
    onChange: (kind: 'tracker-landers') => Promise<void>;
  },
): void {
  const { db, files, limits } = deps;

  /** The lander's id when it is the acting workspace's (any state), else 404. */
  const landerOf = async (actor: Actor, id: string): Promise<{ workspaceId: number; lander: string }> => {
    const workspaceId = workspaceOf(actor);
    const row = await db
      .selectFrom('config_records')
      .select('external_id')
      .where('kind', '=', 'tracker-landers')
      .where(scopeCondition({ workspaceId }, 'workspace_id'))
      .where('external_id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError();
    return { workspaceId, lander: row.external_id };
  };

  const listOf = async (workspaceId: number, lander: string): Promise<LanderFileList> => {
    const list = (await files.list({ workspaceId }, lander)).map(answerFile);
    return { list, total: list.length, served_at: list.length > 0 ? landerPath(lander) : null };
  };

  void api.register(async (scope) => {
    // The ZIP is read whole (yauzl needs random access); at most the unpacked limit, as a ZIP is not
    // larger than what it holds by more than its headers.
    scope.addContentTypeParser(
      ZIP_TYPES,
      { parseAs: 'buffer', bodyLimit: limits.maxBytes + 1024 * 1024 },
      (_r, body, done) => done(null, body),
    );
    scope.post<{ Params: { id: string } }>(
      '/tracker/landers/:id/files',
      {
        // Refused before the body is read: nobody without the right uploads 100 MB to be told no.
        preParsing: async (request) => {
          authorize(request, 'tracker', 'lander', 'update');
        },
      },
      async (request): Promise<LanderFileList> => {
        const actor = authorize(request, 'tracker', 'lander', 'update');
        const { workspaceId, lander } = await landerOf(actor, String(request.params.id));
        if (!Buffer.isBuffer(request.body)) {
          throw new ValidationError({ file: ['Send the ZIP as the body, with Content-Type: application/zip'] });
        }
        const unpacked = await unpackLander(request.body, limits);
        await files.replace(workspaceId, lander, unpacked);
        await deps.onChange('tracker-landers');
        return listOf(workspaceId, lander);
      },
    );
  });

  api.get<{ Params: { id: string } }>('/tracker/landers/:id/files', async (request): Promise<LanderFileList> => {
    const actor = authorize(request, 'tracker', 'lander', 'get');
    const { workspaceId, lander } = await landerOf(actor, String(request.params.id));
    return listOf(workspaceId, lander);
  });

  api.get<{ Params: { id: string } }>(
    '/tracker/landers/:id/files/content',
    async (request): Promise<LanderFileContent> => {
      const actor = authorize(request, 'tracker', 'lander', 'get');
      const { path } = parseInput(ZLanderFileQuery, request.query);
      const { workspaceId, lander } = await landerOf(actor, String(request.params.id));
      if (!isTextFile(path))
        throw new ValidationError({ path: ['Only text files (HTML, CSS, JS, JSON, SVG, text) can be read here'] });
      const file = await files.read({ workspaceId }, lander, path);
      if (!file) throw new NotFoundError();
      const { bytes, ...stored } = file;
      return { ...answerFile(stored), content: bytes.toString('utf8') };
    },
  );

  api.put<{ Params: { id: string } }>('/tracker/landers/:id/files', async (request): Promise<LanderFile> => {
    const actor = authorize(request, 'tracker', 'lander', 'update');
    const edit = parseInput(ZLanderFileEdit, request.body);
    const { workspaceId, lander } = await landerOf(actor, String(request.params.id));
    if (!isTextFile(edit.path)) {
      throw new ValidationError({ path: ['Only text files (HTML, CSS, JS, JSON, SVG, text) can be edited'] });
    }
    const scope = { workspaceId };
    const current = (await files.list(scope, lander)).find((file) => file.path === edit.path);
    if (!current) throw new ValidationError({ path: ['This lander has no file at this path'] });
    const bytes = Buffer.from(edit.content, 'utf8');
    const total = (await files.totalSize(scope, lander)) - current.size + bytes.length;
    if (total > limits.maxBytes) {
      throw new ValidationError({ content: [`The lander would hold more than ${limits.maxBytes} bytes`] });
    }
    if (!(await files.write(workspaceId, lander, edit.path, bytes))) throw new NotFoundError();
    const saved = (await files.list(scope, lander)).find((file) => file.path === edit.path);
    if (!saved) throw new NotFoundError();
    return answerFile(saved);
  });
}
