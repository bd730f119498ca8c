/**
 * The DynamoDB libraries whose objects carry the schema their calls are read by: the
 * classes an evaluator records when constructed (`Value.made`), by package. A library
 * front-end (`frontends/<library>/`) reads the recorded schema; the language evaluator
 * knows no library beyond this list.
 */
export const RECORDED_CONSTRUCTORS: Readonly<Record<string, readonly string[]>> = {
  electrodb: ['Entity', 'Service'],
};
