// Bench only (bench/rows/memory.cts, download): the least any node can do to save a download in n8n —
// n8n's own request helper streaming the response straight into prepareBinaryData, nothing else.
// Its memory growth is the floor this package's download is compared against.
'use strict';

class BareDownload {
	constructor() {
		this.description = {
			displayName: 'Bare Download',
			name: 'bareDownload',
			group: ['transform'],
			version: 1,
			description: 'Bench only',
			defaults: { name: 'Bare Download' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [{ displayName: 'URL', name: 'url', type: 'string', default: '' }],
		};
	}

	async execute() {
		const url = this.getNodeParameter('url', 0);
		const response = await this.helpers.httpRequest({
			method: 'GET',
			url,
			encoding: 'stream',
			returnFullResponse: true,
		});
		const data = await this.helpers.prepareBinaryData(response.body, 'big.mp4', 'video/mp4');
		return [[{ json: {}, binary: { data }, pairedItem: { item: 0 } }]];
	}
}

module.exports = { BareDownload };
