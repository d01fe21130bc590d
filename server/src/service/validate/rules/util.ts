/** What rule modules share: the data readers of model/data.ts, and the front matter of their examples. */
export { arr, obj, str, type Obj } from '../../model/data.ts';

/** Header of a contract used by rule examples: front matter that marks the file a contract. */
export const FM = '---\ncontract: true\nname: demo\nversion: 1.0.0\n---\n';
