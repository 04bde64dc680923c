/**
 * Every reading of an answer whose shape the spec leaves open ("not shown"), and only those:
 * each module quotes the spec's line it answers. The node and the trigger read such answers only
 * through here; test/helpers/shapeGuesses.cts catalogues the forms each accepts.
 */
export * from './answers';
export * from './channels';
export * from './errors';
export * from './formatInputs';
export * from './formats';
export * from './generations';
export * from './lists';
export * from './posts';
