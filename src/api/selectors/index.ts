// Label and field selectors: parsing, matching and printing.
export { SelectorError } from './errors.js';
export {
  everythingSelector,
  fromLabelSelectorObject,
  labelSelectorToString,
  nothingSelector,
  parseLabelSelector,
  selectorFromSet,
  type LabelOperator,
  type LabelRequirement,
  type LabelSelector,
  type LabelSelectorInput,
  type LabelSelectorObject,
  type Labels,
} from './label-selector.js';
export { escapeFieldValue, parseFieldSelector, unescapeFieldValue, type FieldOperator, type FieldRequirement, type FieldSelector } from './field-selector.js';
