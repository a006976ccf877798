/** The result-text budget (src/result/textBudget.ts), for the surfaces that answer a model: MCP, the server, the tool adapters. */
export {
  budgetParts,
  resolveMaxChars,
  DEFAULT_MAX_RESULT_CHARS,
  MIN_RESULT_CHARS,
  MAX_RESULT_CHARS,
  type TextBudget,
  type BudgetedParts,
} from '../result/textBudget.js';
