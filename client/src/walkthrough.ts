/**
 * The walkthrough's ticks (package.json, `onContext:` completion events): a step is ticked once what
 * it teaches happened, however it was started. `onCommand:` events do not serve: a command run
 * from a code lens with arguments reaches VS Code under another id, so the Run agent lens never
 * ticked its step.
 */
import * as vscode from 'vscode';

export type WalkthroughStep = 'newContract' | 'newSnapshot' | 'runAgent' | 'semanticDiff';

export const tickStep = (step: WalkthroughStep) => vscode.commands.executeCommand('setContext', `agentsMd.walkthrough.${step}Done`, true);
