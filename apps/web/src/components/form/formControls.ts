import type { ComponentType } from 'react';
import { ConditionBuilderControl } from '../condition-builder/ConditionBuilderControl';
import { EmailWeightsRepeaterControl } from '../repeaters/EmailWeightsRepeaterControl';
import { EventValuesRepeater } from '../repeaters/EventValuesRepeater';
import { OfferVarsRepeater } from '../repeaters/OfferVarsRepeater';
import { PostbackEventsRepeaterControl } from '../repeaters/PostbackEventsRepeaterControl';
import { PathGroupsRepeater } from '../repeaters/path-groups';
import { PayoutRuleSetsRepeaterControl } from '../repeaters/payout-rules/PayoutRuleSetsRepeaterControl';
import { TsParametersRepeater } from '../repeaters/TsParametersRepeater';
import { AddressListControl } from './controls/AddressListControl';
import { CampaignUrlControl } from './controls/CampaignUrlControl';
import { CopyTextControl } from './controls/CopyTextControl';
import { DirectTrackingControl } from './controls/DirectTrackingControl';
import { HiddenControl } from './controls/HiddenControl';
import { InputControl } from './controls/InputControl';
import { LanderOfferLinkControl } from './controls/LanderOfferLinkControl';
import { MacroUrlControl } from './controls/MacroUrlControl';
import { NetworkPostbackUrlControl } from './controls/NetworkPostbackUrlControl';
import { NumberControl } from './controls/NumberControl';
import { PasswordControl } from './controls/PasswordControl';
import { PermissionsControl } from './controls/PermissionsControl';
import { PostbackKeyControl } from './controls/PostbackKeyControl';
import { RadioWithInfoControl } from './controls/RadioWithInfoControl';
import { SelectControl } from './controls/SelectControl';
import { SelectOfferControl } from './controls/SelectOfferControl';
import { SelectTrackerLanderControl } from './controls/SelectTrackerLanderControl';
import { StatusMapControl } from './controls/StatusMapControl';
import { SwitchControl } from './controls/SwitchControl';
import { SwitchWithSelectControl } from './controls/SwitchWithSelectControl';
import { TagsControl } from './controls/TagsControl';
import { TemplateControl } from './controls/TemplateControl';
import { TextareaControl } from './controls/TextareaControl';
import { lazyControl } from './lazyControl';
import type { FormControlProps } from './types';

const RichTextControl = lazyControl(() => import('./controls/RichTextControl'), 'RichTextControl');
const DateTimeControl = lazyControl(() => import('./controls/DateTimeControl'), 'DateTimeControl');

/**
 * The control of each element kind (§3.2). A new kind (text-html-editor, condition-builder, a repeater…)
 * is one component file plus one line here.
 */
export const FORM_CONTROLS: Record<string, ComponentType<FormControlProps>> = {
  input: InputControl,
  'macro-url': MacroUrlControl,
  password: PasswordControl,
  select: SelectControl,
  switch: SwitchControl,
  textarea: TextareaControl,
  number: NumberControl,
  hidden: HiddenControl,
  'copy-text': CopyTextControl,
  'text-html-editor': RichTextControl,
  'text-vue-editor': RichTextControl,
  datetime: DateTimeControl,
  tags: TagsControl,
  'select-offer': SelectOfferControl,
  'select-tracker-offer': SelectOfferControl,
  'select-tracker-lander': SelectTrackerLanderControl,
  'switch-with-select': SwitchWithSelectControl,
  'radio-with-info': RadioWithInfoControl,
  'offer-vars-repeater': OfferVarsRepeater,
  'event-values-repeater': EventValuesRepeater,
  'email-weights-repeater': EmailWeightsRepeaterControl,
  'ts-parameters-repeater': TsParametersRepeater,
  'postback-events-repeater': PostbackEventsRepeaterControl,
  'condition-builder': ConditionBuilderControl,
  'path-groups-repeater': PathGroupsRepeater,
  'payout-rule-sets-repeater': PayoutRuleSetsRepeaterControl,
  'campaign-url': CampaignUrlControl,
  'lander-offer-link': LanderOfferLinkControl,
  'network-postback-url': NetworkPostbackUrlControl,
  'postback-key': PostbackKeyControl,
  'address-list': AddressListControl,
  'direct-tracking': DirectTrackingControl,
  'status-map': StatusMapControl,
  permissions: PermissionsControl,
  template: TemplateControl,
};

/** Kinds that show no "Looks good!" after a submit: nothing there for the operator to get wrong. */
export const WITHOUT_SUCCESS_TEXT = new Set([
  'hidden',
  'switch',
  'copy-text',
  'switch-with-select',
  'campaign-url',
  'lander-offer-link',
  'direct-tracking',
  'network-postback-url',
  'postback-key',
  'template',
]);

/**
 * Kinds that show the messages inside their value (`fieldErrors`, e.g. `parameters.0.ts_parameter`) under
 * the input they belong to. Every other kind gets the first of them as its own `error`.
 */
export const PLACES_FIELD_ERRORS = new Set([
  'offer-vars-repeater',
  'event-values-repeater',
  'email-weights-repeater',
  'ts-parameters-repeater',
  'postback-events-repeater',
  'payout-rule-sets-repeater',
  'path-groups-repeater',
  'address-list',
  'status-map',
]);
