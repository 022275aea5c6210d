import { describe, expect, it } from "vitest";
import { main as customPipeline } from "../examples/custom-pipeline.js";

describe("examples run", () => {
  it("custom-pipeline: a user stage in a capture, with lifecycle events", async () => {
    const result = await customPipeline();
    expect(result).toEqual({
      preview: "pin ####\n--- stderr ---\ndone\n",
      transforms: ["digit-mask"],
      exitStatus: 0,
      events: ["start", "exit", "final"],
    });
  });
});
