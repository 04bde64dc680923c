/**
 * A compact memory of ids: 48-bit hashes kept as base64 in the trigger's state (6 bytes an id,
 * whatever the id's length), in the order the list shows them, newest first. What gives way when
 * it is full is the bottom of the list, so the memory always holds what decides: the newest ids.
 *
 * A hash can mistake a new id for a remembered one: with n ids held, about n / 2^48 per new id.
 * With 6,000 held that is one in 47 billion; ten years of 1,000 new generations a day
 * (3.65 million) make a loss about 0.008 % likely (docs/trigger.md, "Generation events").
 */
export const HASH_BYTES = 6;

/**
 * 48-bit hash of an id: two 32-bit multiply-xor lanes over its UTF-16 code units, mixed into each
 * other at the end, so every bit of the id reaches every bit kept. Not cryptographic: ids are the
 * service's, not an attacker's.
 */
export function idHash(id: string): number {
	let left = 0x9e3779b9;
	let right = 0x85ebca6b;
	for (let index = 0; index < id.length; index++) {
		const unit = id.charCodeAt(index);
		left = Math.imul(left ^ unit, 0x9e3779b1);
		right = Math.imul(right ^ unit, 0x5f356495);
	}
	left = Math.imul(left ^ (left >>> 16), 0x85ebca6b);
	left ^= Math.imul(right ^ (right >>> 13), 0xc2b2ae35);
	right = Math.imul(right ^ (right >>> 16), 0x85ebca6b);
	right ^= Math.imul(left ^ (left >>> 13), 0xc2b2ae35);
	return (right & 0xffff) * 0x1_0000_0000 + (left >>> 0);
}

/** What the decisions need of a memory: whether an id is in it. */
export interface IdLookup {
	has(id: string): boolean;
	/** Ids held. */
	readonly size: number;
}

/** The memory: hashes in list order (newest first), with a set for lookups. */
export class SeenMemory implements IdLookup {
	private readonly order: number[];
	private readonly set: Set<number>;

	constructor(encoded = '') {
		this.order = decodeHashes(encoded, HASH_BYTES);
		this.set = new Set(this.order);
	}

	/** A memory of these ids, newest (top of the list) first. */
	static of(newestFirst: Iterable<string>): SeenMemory {
		return new SeenMemory().withOnTop(newestFirst);
	}

	has(id: string): boolean {
		return this.set.has(idHash(id));
	}

	/**
	 * A new memory: these ids (newest first) on top, then what this one held that is not among
	 * them, in its order. This is how a poll's reading, top of the list down, goes over the memory.
	 */
	withOnTop(newestFirst: Iterable<string>): SeenMemory {
		const next = new SeenMemory();
		for (const id of newestFirst) next.push(idHash(id));
		for (const hash of this.order) next.push(hash);
		return next;
	}

	get size(): number {
		return this.order.length;
	}

	/** The newest `count` hashes (the top of the list), base64. */
	encode(count: number): string {
		return encodeHashes(this.order.slice(0, Math.max(0, count)), HASH_BYTES);
	}

	private push(hash: number): void {
		if (this.set.has(hash)) return;
		this.set.add(hash);
		this.order.push(hash);
	}
}

/** 32-bit FNV-1a: the hash of layout 3's memory (kept to read it once, at the upgrade). */
export function fnv1a32(text: string): number {
	let hash = 0x811c9dc5;
	for (let index = 0; index < text.length; index++) {
		hash ^= text.charCodeAt(index);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash >>> 0;
}

/**
 * The post outcomes' memory: 32-bit FNV-1a hashes in insertion order (the oldest written give way
 * first), with a set for lookups. Posts come in no stated order, so the time they were read is
 * the only order there is.
 */
export class InsertionMemory implements IdLookup {
	private readonly order: number[];
	private readonly set: Set<number>;

	constructor(encoded = '') {
		this.order = decodeHashes(encoded, 4);
		this.set = new Set(this.order);
	}

	has(id: string): boolean {
		return this.set.has(fnv1a32(id));
	}

	add(id: string): void {
		const hash = fnv1a32(id);
		if (this.set.has(hash)) return;
		this.set.add(hash);
		this.order.push(hash);
	}

	/** Forgets an id (no-op when it is not held). */
	delete(id: string): void {
		const hash = fnv1a32(id);
		if (!this.set.delete(hash)) return;
		this.order.splice(this.order.indexOf(hash), 1);
	}

	get size(): number {
		return this.order.length;
	}

	/** The newest `count` hashes written, base64. */
	encode(count: number): string {
		return encodeHashes(count > 0 ? this.order.slice(-count) : [], 4);
	}
}

/** Hashes of `width` bytes each, big-endian, from base64. */
function decodeHashes(encoded: string, width: number): number[] {
	const bytes = Buffer.from(encoded, 'base64');
	const hashes: number[] = [];
	for (let offset = 0; offset + width <= bytes.length; offset += width)
		hashes.push(bytes.readUIntBE(offset, width));
	return hashes;
}

function encodeHashes(hashes: number[], width: number): string {
	const bytes = Buffer.alloc(hashes.length * width);
	hashes.forEach((hash, index) => bytes.writeUIntBE(hash, index * width, width));
	return bytes.toString('base64');
}
