import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOfferLookup } from '../../../api/useOfferLookup';
import { wrapperProps } from '../../form/fieldProps';
import type { FormControlProps } from '../../form/types';
import { useSimulationMarks, wasTested } from '../../simulation/SimulationMarks';
import { Repeater } from '../Repeater';
import { RepeaterField } from '../RepeaterField';
import { repeaterProps } from '../repeaterProps';
import { PathGroupBody, PathGroupHeader } from './PathGroupRow';
import { PathGroupsContext, type PathGroupsSettings } from './PathGroupsContext';
import {
  createPathGroup,
  duplicatePathGroup,
  errorsUnder,
  type FlowType,
  normalizePathGroups,
  type PathGroup,
  readPathGroups,
} from './pathGroupRows';
import { SimulationNotice } from './SimulationNotice';

/** What `element.input` of a `path-groups-repeater` element carries. */
export interface PathGroupsRepeaterInput {
  /** API paths name one offer; tracker paths rotate offer and lander rows (§3.4). Default 'api'. */
  flowType?: FlowType;
}

/**
 * `path-groups-repeater` (§2.8, §3.3): a flow's `path_groups`, each with its condition and paths. Value:
 * the groups as they travel in JSON, priority = row index, conditions as pruned JSON text.
 * Messages inside the value (`0.paths.1.offer_external_id`) show under the input they belong to.
 */
export function PathGroupsRepeater(props: FormControlProps) {
  const { element, value, onChange, label, error, fieldErrors, disabled } = props;
  const { t } = useTranslation();
  const input = (element.input ?? {}) as PathGroupsRepeaterInput;
  const flowType: FlowType = input.flowType === 'tracker' ? 'tracker' : 'api';
  const offers = useOfferLookup(flowType === 'tracker' ? 'tracker-offers' : 'offers');
  const groups = readPathGroups(value);
  const made = useRef(new Set<string>());
  const idPrefix = useId();
  // Open or closed as toggled; rows never toggled keep how they started (asked once per row).
  const [toggled, setToggled] = useState<ReadonlyMap<string, boolean>>(() => new Map());
  const started = useRef(new Map<string, boolean>());

  const settings = useMemo<PathGroupsSettings>(() => {
    const enabledById = new Map(offers.map((offer) => [offer.value, offer.enabled]));
    return {
      flowType,
      offers,
      offerEnabled: (id) => enabledById.get(id),
      disabled,
      isNew: (id) => made.current.has(id),
      markNew: (id) => {
        made.current.add(id);
      },
      isOpen: (id, startsOpen) => {
        const open = toggled.get(id);
        if (open !== undefined) return open;
        let start = started.current.get(id);
        if (start === undefined) {
          start = startsOpen();
          started.current.set(id, start);
        }
        return start;
      },
      setOpen: (id, open) => setToggled((current) => new Map(current).set(id, open)),
      idPrefix,
    };
  }, [flowType, offers, disabled, toggled, idPrefix]);

  // A new simulation opens the groups routing tested, so their marked rules are in view.
  const answer = useSimulationMarks()?.answer;
  useEffect(() => {
    if (!answer) return;
    setToggled((current) => {
      const next = new Map(current);
      for (const group of answer.groups) if (wasTested(group)) next.set(group.id, true);
      return next;
    });
  }, [answer]);

  const remember = (group: PathGroup) => {
    settings.markNew(group.id);
    for (const path of group.paths) settings.markNew(path.id);
    return group;
  };
  // Messages no group shows (the list itself, a group that is gone) stay on the element.
  const groupErrors = (index: number) => errorsUnder(fieldErrors, String(index));
  const rest = Object.entries(fieldErrors ?? {})
    .filter(([path]) => !/^\d+\./.test(path) || Number(path.split('.')[0]) >= groups.length)
    .map(([, message]) => message);
  const shownError = [error, ...rest].filter(Boolean);

  return (
    <PathGroupsContext.Provider value={settings}>
      <RepeaterField
        {...wrapperProps(props)}
        error={
          shownError.length > 0 ? shownError.map((message) => <div key={String(message)}>{message}</div>) : undefined
        }
      >
        <SimulationNotice />
        <Repeater<PathGroup>
          rows={groups}
          onChange={onChange}
          normalize={normalizePathGroups}
          createRow={() => remember(createPathGroup())}
          duplicateRow={(group) => remember(duplicatePathGroup(group))}
          {...repeaterProps(props)}
          // Without a plain-text label the list is named "Path groups", not by the element's name.
          label={typeof label === 'string' ? label : t('controls:pathGroups.groups')}
          addLabel={t('controls:pathGroups.addGroup')}
          emptyText={t('controls:pathGroups.emptyGroups')}
          rowTestId="path-group"
          renderRow={(group, index) => (
            <PathGroupHeader group={group} position={index + 1} fieldErrors={groupErrors(index)} />
          )}
          renderBody={(group, index, update) => (
            <PathGroupBody group={group} position={index + 1} update={update} fieldErrors={groupErrors(index)} />
          )}
        />
      </RepeaterField>
    </PathGroupsContext.Provider>
  );
}
