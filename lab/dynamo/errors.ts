// DynamoDB error responses. The SDKs pick the exception class from the part
// of `__type` after '#', so the prefixes follow what the service sends.

const DDB = 'com.amazonaws.dynamodb.v20120810#';
const CORAL = 'com.amazon.coral.service#';

/** An error the lab answers with: HTTP status plus the JSON body the service would send. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? body.Message ?? body.__type));
  }

  get type(): string {
    return String(this.body.__type ?? '');
  }
}

export function validationError(message: string): ServiceError {
  return new ServiceError(400, { __type: 'com.amazon.coral.validate#ValidationException', message });
}

export function serializationError(message: string): ServiceError {
  return new ServiceError(400, { __type: `${CORAL}SerializationException`, Message: message });
}

export function unknownOperation(message: string): ServiceError {
  return new ServiceError(400, { __type: `${CORAL}UnknownOperationException`, message });
}

export function resourceNotFound(message: string): ServiceError {
  return new ServiceError(400, { __type: `${DDB}ResourceNotFoundException`, message });
}

export function internalError(message: string): ServiceError {
  return new ServiceError(500, { __type: `${DDB}InternalServerError`, message });
}

export interface ThrottlingReason {
  reason: string;
  resource: string;
}

/**
 * The throttling exception for a request. Provisioned tables answer with
 * ProvisionedThroughputExceededException (reasons under `ThrottlingReasons`);
 * on-demand tables with ThrottlingException, whose model spells the list
 * `throttlingReasons` (see the SDK's errors model).
 */
export function throttlingError(onDemand: boolean, reasons: ThrottlingReason[]): ServiceError {
  if (onDemand) {
    return new ServiceError(400, {
      __type: `${DDB}ThrottlingException`,
      message:
        'Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your ' +
        'table or index so please try again shortly. If exceptions persist, check if you have a hot key.',
      throttlingReasons: reasons,
    });
  }
  return new ServiceError(400, {
    __type: `${DDB}ProvisionedThroughputExceededException`,
    message:
      'The level of configured provisioned throughput for the table was exceeded. Consider increasing your ' +
      'provisioning level with the UpdateTable API.',
    ThrottlingReasons: reasons,
  });
}

export interface CancellationReason {
  Code: string;
  Message?: string;
  Item?: Record<string, unknown>;
}

export function transactionCanceled(reasons: CancellationReason[]): ServiceError {
  const codes = reasons.map((r) => r.Code).join(', ');
  return new ServiceError(400, {
    __type: `${DDB}TransactionCanceledException`,
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes}]`,
    CancellationReasons: reasons,
  });
}

/** dynalite reports errors as Error objects carrying `statusCode` and `body`. */
export function fromDynalite(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  const e = err as { statusCode?: number; body?: Record<string, unknown>; message?: string } | undefined;
  if (e && typeof e.statusCode === 'number' && e.body) return new ServiceError(e.statusCode, e.body);
  return internalError(e?.message ?? String(err));
}
