/**
 * Multipart bodies that stream. axios (in n8n's request helper) streams any spec-shaped FormData:
 * an instance with append/entries/iterator and the FormData tag, whose file parts expose
 * stream(), size and type. It reads each part only while sending, and again on a retry, so a
 * large file never sits in memory whole. No Node import is needed for it.
 */
export class StreamedFile {
	constructor(
		readonly name: string,
		readonly type: string,
		readonly size: number,
		private readonly open: () => Promise<AsyncIterable<Uint8Array> | Iterable<Uint8Array>>,
	) {}

	async *stream(): AsyncGenerator<Uint8Array> {
		yield* await this.open();
	}
}

export class StreamingForm {
	readonly parts: Array<[string, StreamedFile | string]> = [];

	get [Symbol.toStringTag](): string {
		return 'FormData';
	}

	append(name: string, value: StreamedFile | string): void {
		this.parts.push([name, value]);
	}

	entries(): IterableIterator<[string, StreamedFile | string]> {
		return this.parts[Symbol.iterator]();
	}

	[Symbol.iterator](): IterableIterator<[string, StreamedFile | string]> {
		return this.entries();
	}
}
