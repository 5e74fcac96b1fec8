import { visibleMenu } from '@switchyard/domain';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../shared/auth/useCurrentUser';
import { SideMenuLink, type SideMenuVariant } from './SideMenuLink';

interface SideMenuProps {
  variant?: SideMenuVariant;
  /** Called after a link is followed (closes the menu drawer on small screens). */
  onNavigate?: () => void;
}

/** §2.3: the entries this user may open, under the headings the rules allow. */
export function SideMenu({ variant = 'full', onNavigate }: SideMenuProps) {
  const { t } = useTranslation();
  const sections = visibleMenu(useCurrentUser());

  return (
    <nav aria-label={t('menu.mainMenu')} className="sy-side-menu" data-variant={variant}>
      {sections.map((section) => (
        <Fragment key={section.section ?? 'top'}>
          {section.showHeading && section.headingKey && (
            <>
              <h2 className="sy-menu-heading" data-variant={variant}>
                {t(section.headingKey)}
              </h2>
              {/* What the section is for: the Lead API and the Click tracker both have flows and offers. */}
              {section.section && (
                <p className="sy-menu-hint" data-variant={variant}>
                  {t(`menu.sectionHints.${section.section}`)}
                </p>
              )}
            </>
          )}
          {section.entries.map((entry) => (
            <SideMenuLink key={entry.route} entry={entry} variant={variant} onNavigate={onNavigate} />
          ))}
        </Fragment>
      ))}
    </nav>
  );
}
