import { Ajv2020 } from 'ajv/dist/2020.js';

// Holds answers to what /openapi.json documents for them: each JSON answer must fit the schema of its
// operation's status (or its 4XX/5XX range). A documented schema that lies fails the test that sees it.

interface Spec {
  paths: Record<string, Record<string, { responses?: Record<string, DocumentedResponse> }>>;
}
interface DocumentedResponse {
  content?: Record<string, { schema?: object }>;
}

/** A checker over the document: `check(method, template, status, contentType, body)` answers what is wrong. */
export function answerChecker(spec: { paths: object }) {
  const paths = spec.paths as Spec['paths'];
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
  const compiled = new Map<object, ReturnType<typeof ajv.compile>>();
  return (method: string, template: string, status: number, contentType: string, body: unknown) => {
    const responses = paths[template]?.[method.toLowerCase()]?.responses;
    if (!responses) return `${method} ${template} is not documented`;
    const documented = responses[String(status)] ?? responses[`${String(status)[0]}XX`];
    if (!documented) return `${method} ${template} does not document ${status}`;
    const schema = documented.content?.['application/json']?.schema;
    if (!schema || !contentType.includes('application/json') || status === 204) return undefined;
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(schema, validate);
    }
    return validate(body)
      ? undefined
      : `${method} ${template} ${status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 200)}`;
  };
}
