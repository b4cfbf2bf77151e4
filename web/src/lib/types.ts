// The names the web code uses for what the Rust side sends: aliases of the
// types generated from the API's OpenAPI document (web/src/generated, written
// by scripts/generate-types, never edited by hand). A change to an answer's
// Rust type reaches the islands' type check through here.

import type { components } from '../generated/api';

/** Every schema of the API's document, by its Rust type's name. */
export type ApiSchemas = components['schemas'];

/** An error answer: `{success: false, message, errors?}`. */
export type ErrorBody = ApiSchemas['ErrorBody'];
/** `GET /api/home/sliders`. */
export type SlidersResponse = ApiSchemas['SlidersResponse'];
/** A home page slider. */
export type Slider = ApiSchemas['Slider'];
