/** A run result as an HTTP answer (status, headers, JSON body with files as base64): one mapping for every HTTP surface. */
export { runResultHttp, runResultResponse, type RunHttpAnswer } from '../result/runResultHttp.js';
