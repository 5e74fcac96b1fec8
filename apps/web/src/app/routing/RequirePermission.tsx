import type { Action, Section } from '@switchyard/domain';
import { Outlet } from 'react-router';
import { useCan } from '../../shared/auth/useCan';
import { ErrorPage } from '../../shared/errors/ErrorPage';

export interface RequirePermissionProps {
  section: Section;
  resource: string;
  action: Action;
}

/** The screens below need this permission (§6); without it the error page says 403. */
export function RequirePermission({ section, resource, action }: RequirePermissionProps) {
  const allowed = useCan(section, resource, action);
  return allowed ? <Outlet /> : <ErrorPage status={403} />;
}
