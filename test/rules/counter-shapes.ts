// A counter item two Lambda handlers share, as v2 DocumentClient code writes them: one hands
// out the next number to every order, the other resets it. SL001 and SL004 each test their half.
export const TICKET_COUNTER = `const AWS = require('aws-sdk');
const doc = new AWS.DynamoDB.DocumentClient();

// Hands out the next ticket number to every order.
exports.handler = async () => {
  const res = await doc
    .update({
      TableName: process.env.TABLE_NAME,
      Key: { PK: 'ticketNumber' },
      UpdateExpression: 'ADD seq :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    })
    .promise();
  return res.Attributes.seq;
};
`;

export const TICKET_RESET = `const AWS = require('aws-sdk');
const doc = new AWS.DynamoDB.DocumentClient();

exports.handler = async (event) => {
  console.log(JSON.stringify(event));
  await doc
    .update({
      TableName: process.env.TABLE_NAME,
      Key: {
        PK: 'ticketNumber'
      },
      UpdateExpression: 'set seq = :zero',
      ExpressionAttributeValues: { ':zero': 0 },
    })
    .promise();
};
`;

// SL001 constant-partition-key: every request for one constant key lands on one partition.
