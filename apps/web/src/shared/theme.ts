import {
  createTheme,
  DrawerHeader,
  type DrawerHeaderProps,
  type MantineColorsTuple,
  ModalHeader,
  type ModalHeaderProps,
  PasswordInput,
} from '@mantine/core';
import { SIDEBAR_COLLAPSE_MIN_WIDTH_PX } from '@switchyard/domain';

const brand: MantineColorsTuple = [
  '#eef1fd',
  '#dce2fb',
  '#b6c2f5',
  '#8fa1ef',
  '#6f86ea',
  '#5b74e7',
  '#556ee6',
  '#4459cd',
  '#3a4fb8',
  '#2d43a3',
];

/** A title bar as a plain block (see `components` below). */
const AS_DIV = { component: 'div' } as Partial<ModalHeaderProps & DrawerHeaderProps>;

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 6,
  colors: { brand },
  defaultRadius: 'md',
  fontFamily:
    'Inter, "Segoe UI", system-ui, -apple-system, "Noto Sans", "Noto Sans Arabic", "Noto Sans SC", sans-serif',
  headings: { fontWeight: '600' },
  // `md` is where the side menu stops being a burger drawer (§2.4, §9).
  components: {
    // The show/hide toggle is out of the tab order; hiding it from assistive technology too keeps its
    // untranslated built-in label out of the page and the field's label unique.
    PasswordInput: PasswordInput.extend({
      defaultProps: { visibilityToggleButtonProps: { 'aria-hidden': true } },
    }),
    // A dialog's title bar is not the page's banner: as a <header> it made a second one beside the
    // app's own (axe: landmark-no-duplicate-banner).
    // Their props' type leaves `component` out, but each passes its props on to a Box, which takes it.
    ModalHeader: ModalHeader.extend({ defaultProps: AS_DIV }),
    DrawerHeader: DrawerHeader.extend({ defaultProps: AS_DIV }),
  },
  breakpoints: {
    xs: '36em',
    sm: '48em',
    md: `${SIDEBAR_COLLAPSE_MIN_WIDTH_PX / 16}em`,
    lg: '75em',
    xl: '88em',
  },
});
