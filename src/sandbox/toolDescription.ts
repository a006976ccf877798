/** The run_analysis tool's description (the prelude's API and the data card), for the surfaces that offer the tool. */
export { toolDescription } from '../result/toolDescription.js';
