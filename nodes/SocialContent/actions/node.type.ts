/**
 * Every resource and its operations, as the Resource and Operation parameters name them. Each
 * resource's `operations` map is typed from this, so a missing or misspelt operation does not
 * compile (the model: n8n-nodes-base Discord v2's node.type.ts).
 */
export interface SocialContentOperations {
	account: 'checkConnection' | 'getBrandProfile';
	channel:
		| 'list'
		| 'getConnectUrl'
		| 'isConnected'
		| 'disconnect'
		| 'getAnalytics'
		| 'getPostAnalytics';
	hook: 'score' | 'generate';
	media: 'upload' | 'importFromUrl' | 'list';
	post: 'create' | 'list' | 'delete' | 'findFreeSlot';
	studio: 'listFormats' | 'startGeneration' | 'getGeneration' | 'listGenerations' | 'getCredits';
}

export type ResourceName = keyof SocialContentOperations;
