// CloudWatch errors. One error has three spellings: the Smithy shape name
// (`__type` in JSON and CBOR), the awsQuery code (`x-amzn-query-error` header
// and the XML <Code>), and the HTTP status, all from the CloudWatch model.

export class CloudWatchError extends Error {
  constructor(
    readonly shape: string,
    readonly queryCode: string,
    readonly status: number,
    message: string,
    /** ResourceNotFoundException spells its message member `Message`. */
    readonly messageMember: 'message' | 'Message' = 'message',
  ) {
    super(message);
  }

  /** The error body for the JSON and CBOR protocols. */
  body(namespace = 'com.amazonaws.cloudwatch#'): Record<string, unknown> {
    return { __type: `${namespace}${this.shape}`, [this.messageMember]: this.message };
  }
}

export const invalidParameter = (m: string) =>
  new CloudWatchError('InvalidParameterValueException', 'InvalidParameterValue', 400, m);
export const missingParameter = (name: string) =>
  new CloudWatchError(
    'MissingRequiredParameterException',
    'MissingParameter',
    400,
    `The parameter ${name} is required.`,
  );
export const invalidCombination = (m: string) =>
  new CloudWatchError('InvalidParameterCombinationException', 'InvalidParameterCombination', 400, m);
export const ruleNotFound = (name: string) =>
  new CloudWatchError(
    'ResourceNotFoundException',
    'ResourceNotFoundException',
    404,
    `Rule ${name} does not exist`,
    'Message',
  );
export const unknownCloudWatchOperation = (op: string, supported: string[]) =>
  new CloudWatchError(
    'UnknownOperationException',
    'InvalidAction',
    400,
    `The ShardLens lab does not implement the CloudWatch operation ${op || '(none)'}. Supported: ${supported.join(', ')}.`,
  );
export const malformedRequest = (m: string) => new CloudWatchError('SerializationException', 'MalformedInput', 400, m);
export const internalFault = (m: string) =>
  new CloudWatchError('InternalServiceFault', 'InternalServiceError', 500, m, 'Message');
