import type { FormElement } from '../../components/form/types';
import { valueAtPath } from '../../components/form/valuePaths';

/** One template offered on a create screen: the form values it fills, and a postback URL to show. */
export interface FormTemplate {
  key: string;
  form: object;
  postbackUrl?: string;
}

/**
 * "Start from a template": choosing one sets every element of `elements` the template has a
 * value for (at the element's path, so `postback_params.click_id` too). The choice itself is no field of
 * the record: the resource's form schema drops it from the body.
 */
export function templateElement(templates: readonly FormTemplate[], elements: readonly FormElement[]): FormElement {
  return {
    name: 'template',
    type: 'template',
    label: 'resources:templates.label',
    labelDescription: 'resources:templates.hint',
    placeholder: 'resources:templates.placeholder',
    options: templates.map((template) => ({
      value: template.key,
      label: String((template.form as { name?: unknown }).name ?? template.key),
      description: template.postbackUrl,
    })),
    value: '',
    onChange: (key, form) => {
      const template = templates.find((candidate) => candidate.key === key);
      if (!template) return;
      for (const element of elements) {
        const value = valueAtPath(template.form as Record<string, unknown>, element.name);
        if (value !== undefined) form.setValue(element.name, value);
      }
    },
  };
}
