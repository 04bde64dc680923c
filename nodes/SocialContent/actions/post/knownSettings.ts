/**
 * Post settings each network knows, for Settings → Other Setting → Name. The spec shows only X's
 * `who_can_reply_post` (it has its own field); the rest are named by the open-source backend whose
 * public API ours shares (gitroomhq/postiz-app, `libraries/nestjs-libraries/src/dtos/posts/providers-settings/*.dto.ts`).
 * A list value is `<network>:<setting>`; the setting is sent under its own name. Any other name can
 * still be given with an expression.
 */
export interface KnownSetting {
	network: string;
	name: string;
	label: string;
	description: string;
}

const known = (
	network: string,
	name: string,
	label: string,
	description: string,
): KnownSetting => ({ network, name, label, description });

export const KNOWN_SETTINGS: KnownSetting[] = [
	known(
		'instagram',
		'collaborators',
		'Collaborators',
		'Up to 3 accounts invited as collaborators: a JSON list such as [{"label":"acme"}]',
	),
	known(
		'instagram',
		'graduation_strategy',
		'Trial Reel Graduation',
		'MANUAL or SS_PERFORMANCE (with Trial Reel)',
	),
	known('instagram', 'is_trial_reel', 'Trial Reel', 'true: shown to non-followers first'),
	known('instagram', 'post_type', 'Post Type', 'post or story'),
	known(
		'linkedin',
		'carousel_name',
		'Carousel Name',
		'The name of the document when images go as a carousel',
	),
	known(
		'linkedin',
		'post_as_images_carousel',
		'Post Images as Carousel',
		'true: the images go as one swipeable document',
	),
	known('pinterest', 'board', 'Board', 'The ID of the board to pin to (required by Pinterest)'),
	known('pinterest', 'dominant_color', 'Dominant Color', 'A hex color such as #ff0000'),
	known('pinterest', 'link', 'Link', 'Where the pin leads (a URL)'),
	known('pinterest', 'title', 'Title', "The pin's title"),
	known(
		'reddit',
		'subreddit',
		'Subreddits',
		'A JSON list of {"value":{"subreddit","title","type","url","is_flair_required","flair"}}',
	),
	known('tiktok', 'autoAddMusic', 'Auto Add Music', 'yes or no'),
	known('tiktok', 'brand_content_toggle', 'Branded Content', 'true: a paid partnership'),
	known('tiktok', 'brand_organic_toggle', 'Your Brand', 'true: promotes your own business'),
	known('tiktok', 'comment', 'Allow Comments', 'true or false'),
	known(
		'tiktok',
		'disclose',
		'Disclose Content',
		'true: the video promotes a brand, product or service',
	),
	known('tiktok', 'duet', 'Allow Duet', 'true or false'),
	known(
		'tiktok',
		'privacy_level',
		'Privacy',
		'PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR or SELF_ONLY',
	),
	known('tiktok', 'stitch', 'Allow Stitch', 'true or false'),
	known('tiktok', 'title', 'Title', 'The title of a photo post'),
	known('x', 'community', 'Community', 'The URL of an X community to post in'),
	known('youtube', 'tags', 'Tags', 'A JSON list such as [{"value":"launch","label":"launch"}]'),
	known('youtube', 'thumbnail', 'Thumbnail', 'A media record from the library: {"id","path"}'),
	known('youtube', 'title', 'Title', "The video's title (required by YouTube)"),
	known('youtube', 'type', 'Visibility', 'public, private or unlisted'),
];

/** Networks that take another's settings (the backend gives them the same DTO). */
const SAME_SETTINGS_AS: Record<string, string> = {
	'linkedin-page': 'linkedin',
	'instagram-standalone': 'instagram',
};

/** The network whose known settings a channel's network takes. */
export function settingsNetwork(network: string): string {
	return SAME_SETTINGS_AS[network] ?? network;
}

/** A list value (`tiktok:title`) as its network and setting; a typed name as itself. */
export function readSettingName(value: string): { network?: string; name: string } {
	const text = value.trim();
	const at = text.indexOf(':');
	if (at > 0) {
		const network = text.slice(0, at);
		const name = text.slice(at + 1);
		if (KNOWN_SETTINGS.some((setting) => setting.network === network && setting.name === name))
			return { network, name };
	}
	return { name: text };
}
