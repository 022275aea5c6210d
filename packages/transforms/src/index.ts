export {
  ANSI_STRIP,
  createAnsiStrip,
  MAX_CONTROL_STRING,
} from "./ansi-strip.js";
export { BUILTIN_RULES } from "./builtin-rules.js";
export {
  type CompiledAnchor,
  type CompiledRedaction,
  compileRedaction,
  DEFAULT_REDACTION_WINDOW,
  type HeldText,
  isCompiledRedaction,
  type RedactionOptions,
} from "./compile-redaction.js";
export {
  checkKnownValue,
  type KnownValue,
  knownValueForms,
  knownValuesFromEnv,
  knownValuesFromFile,
  knownValuesOfEnvSecrets,
  MIN_KNOWN_VALUE_BYTES,
  parseKnownValues,
} from "./known-values.js";
export { createLineRedactor } from "./line-redactor.js";
export {
  createPreviewTap,
  PREVIEW_TAP,
  type PreviewTapOptions,
  previewTapBudget,
} from "./preview-tap.js";
export {
  CONTEXT_PROVIDERS,
  type ContextProvider,
  PROVIDER_FORMATS,
  type ProviderFormat,
} from "./provider-catalogue.js";
export {
  checksumValid,
  contextSample,
  fillShape,
  type ProviderSample,
  providerSamples,
  seededRandom,
} from "./provider-samples.js";
export { redactText } from "./redact-text.js";
export {
  createRedactor,
  REDACTOR,
  type RedactorCounters,
  type RedactorStage,
  type RedactorStageOptions,
  type ScanCounters,
  type TraceSegment,
} from "./redactor.js";
export {
  type AnchorMatch,
  type Candidate,
  type LiteralRule,
  type MatcherRule,
  type PatternRule,
  type RedactionRule,
  Verdict,
  validateRule,
} from "./rule.js";
export {
  type TokenRuleOptions,
  tokenRule,
} from "./rules/token-rule.js";
export {
  checkStreamPlan,
  createStreamPlan,
  observeOnly,
  type StreamPlanOptions,
} from "./stream-plan.js";
export {
  createUtf8Decoder,
  UTF8_DECODER,
  type Utf8Decoder,
} from "./utf8-decoder.js";
