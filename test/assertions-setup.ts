import { beforeEach, expect } from 'vitest';

// Every test asserts something: a test whose checks never ran (a loop over nothing, a callback never called) fails
// instead of passing quietly.
beforeEach(() => {
  expect.hasAssertions();
});
