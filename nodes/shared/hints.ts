import type { IExecuteFunctions } from 'n8n-workflow';

/** The node's resources: each value and the name its Resource dropdown shows (made from this). */
export const RESOURCES = {
	account: 'Account',
	channel: 'Channel',
	hook: 'Hook',
	media: 'Media',
	post: 'Post',
	studio: 'Studio',
} as const;

/** An operation: its resource, and its entry (name and value) in that resource's Operation dropdown. */
function operation(resource: keyof typeof RESOURCES, name: string, value: string) {
	return { resource, option: { name, value } };
}

/**
 * The operations an error's advice points to, named as the panel shows them and as a tool's caller
 * sends them: a person reads the label, an agent or MCP client the values. Each one's entry in its
 * resource's Operation dropdown (name and value) is taken from here by the node's description, so
 * advice and panel cannot drift; here, since the trigger reaches this advice through nodes/shared,
 * which takes nothing from the action node.
 */
export const OPERATIONS = {
	getGeneration: operation('studio', 'Get Generation', 'getGeneration'),
	listGenerations: operation('studio', 'Get Many Generations', 'listGenerations'),
	getCredits: operation('studio', 'Get Credits', 'getCredits'),
	listFormats: operation('studio', 'Get Many Formats', 'listFormats'),
	listChannels: operation('channel', 'Get Many', 'list'),
	getConnectUrl: operation('channel', 'Get Connect URL', 'getConnectUrl'),
	upload: operation('media', 'Upload', 'upload'),
	importFromUrl: operation('media', 'Import From URL', 'importFromUrl'),
};

/** `"Studio → Get Generation" (resource "studio", operation "getGeneration")`. */
export function operationHint(which: keyof typeof OPERATIONS): string {
	const { resource, option } = OPERATIONS[which];
	return `"${RESOURCES[resource]} → ${option.name}" (resource "${resource}", operation "${option.value}")`;
}

/** Something the user must know that is not an error: on the output pane, and in n8n's log. */
export function noticeOnOutput(ctx: IExecuteFunctions, message: string): void {
	ctx.logger.warn(`Social Content: ${message}`);
	ctx.addExecutionHints?.({ message, location: 'outputPane' });
}

/** A choice named as the panel shows it and as it is sent: `"Publish Now" (now)`. */
export function choiceHint(label: string, value: string): string {
	return `"${label}" (${value})`;
}
