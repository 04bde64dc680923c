/**
 * A compact memory of ids: 32-bit FNV-1a hashes, in insertion order, kept as base64 in the
 * trigger's state (4 bytes an id, whatever the id's length). A hash can mistake a new id for a
 * remembered one: with n ids held, about n / 2^32 per lookup.
 */
/** 32-bit FNV-1a of an id: what the memory keeps instead of the id. */
export function idHash(id: string): number {
	let hash = 0x811c9dc5;
	for (let index = 0; index < id.length; index++) {
		hash ^= id.charCodeAt(index);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash >>> 0;
}

/** The memory: hashes in insertion order (the oldest give way first), with a set for lookups. */
export class SeenMemory {
	private readonly order: number[];
	private readonly set: Set<number>;

	constructor(encoded = '') {
		const bytes = Buffer.from(encoded, 'base64');
		this.order = [];
		for (let offset = 0; offset + 4 <= bytes.length; offset += 4)
			this.order.push(bytes.readUInt32BE(offset));
		this.set = new Set(this.order);
	}

	has(id: string): boolean {
		return this.set.has(idHash(id));
	}

	add(id: string): void {
		const hash = idHash(id);
		if (this.set.has(hash)) return;
		this.set.add(hash);
		this.order.push(hash);
	}

	/** Forgets an id (no-op when it is not held). */
	delete(id: string): void {
		const hash = idHash(id);
		if (!this.set.delete(hash)) return;
		this.order.splice(this.order.indexOf(hash), 1);
	}

	get size(): number {
		return this.order.length;
	}

	/** The newest `count` hashes, base64. */
	encode(count: number): string {
		const kept = this.order.slice(-Math.max(0, count));
		const bytes = Buffer.alloc(kept.length * 4);
		kept.forEach((hash, index) => bytes.writeUInt32BE(hash, index * 4));
		return bytes.toString('base64');
	}
}
