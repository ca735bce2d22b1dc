/** Recorded in every manifest; bump when the same inputs would give different snapshot content. */
export const PIPELINE_VERSION = "0.7.0"
