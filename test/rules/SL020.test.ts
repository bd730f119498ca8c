import { ruleTester } from './tester';

// SL020 skewed-kafka-key: a producer whose record key takes few values, is a constant, or pins a partition.
ruleTester('SL020', {
  valid: [
    {
      name: 'kafkajs: an order service keyed by the order id',
      files: {
        'src/orders/order-events.ts': `import { Kafka, type Producer } from 'kafkajs';

export interface Order {
  id: string;
  status: 'placed' | 'paid' | 'shipped';
  customerId: string;
}

export class OrderEvents {
  private readonly producer: Producer;

  constructor(kafka: Kafka) {
    this.producer = kafka.producer({ idempotent: true });
  }

  async statusChanged(order: Order): Promise<void> {
    await this.producer.send({
      topic: 'orders.status-changed',
      messages: [{ key: order.id, value: JSON.stringify({ status: order.status }) }],
    });
  }
}
`,
      },
    },
    {
      name: 'kafkajs: records with no key, or a null one, are spread by the partitioner',
      files: {
        'src/metrics.js': `const { Kafka } = require('kafkajs');

const producer = new Kafka({ brokers: process.env.BROKERS.split(',') }).producer();

async function recordClicks(clicks) {
  await producer.send({
    topic: 'clicks',
    messages: clicks.map((c) => ({ value: JSON.stringify(c) })),
  });
}

async function recordView(view) {
  await producer.send({ topic: 'views', messages: [{ key: null, value: JSON.stringify(view) }] });
}

module.exports = { recordClicks, recordView };
`,
      },
    },
    {
      name: 'node-rdkafka: a partition of null or -1 and a key per device',
      files: {
        'lib/telemetry.js': `const Kafka = require('node-rdkafka');

const producer = new Kafka.Producer({ 'metadata.broker.list': 'kafka:9092', dr_cb: true });
producer.connect();

function publishReading(reading) {
  producer.produce('telemetry', null, Buffer.from(JSON.stringify(reading)), reading.deviceId, Date.now());
}

function publishAlert(alert) {
  producer.produce('alerts', -1, Buffer.from(JSON.stringify(alert)), String(alert.sensorId));
}

module.exports = { publishReading, publishAlert };
`,
      },
    },
    {
      name: '@confluentinc/kafka-javascript: the kafkajs-compatible API keyed by a uuid',
      files: {
        'src/audit/publisher.ts': `import { KafkaJS } from '@confluentinc/kafka-javascript';
import { randomUUID } from 'node:crypto';

const kafka = new KafkaJS.Kafka({ kafkaJS: { brokers: ['broker:9092'], clientId: 'audit' } });
const producer = kafka.producer();

export async function audit(action: string, actor: string) {
  await producer.send({ topic: 'audit-log', messages: [{ key: randomUUID(), value: JSON.stringify({ action, actor }) }] });
}
`,
      },
    },
    {
      name: 'confluent-kafka and kafka-python keyed by ids, or with no key',
      files: {
        'app/events.py': `import json

from confluent_kafka import Producer

producer = Producer({"bootstrap.servers": "kafka:9092"})


def publish_payment(payment):
    producer.produce("payments", key=str(payment.id).encode(), value=json.dumps(payment.as_dict()))
    producer.poll(0)


def publish_heartbeat(host):
    producer.produce("heartbeats", value=json.dumps({"host": host}), key=None)
`,
        'app/tracking.py': `import json

from kafka import KafkaProducer

producer = KafkaProducer(bootstrap_servers=["kafka:9092"], value_serializer=lambda v: json.dumps(v).encode())


def track(user_id, event):
    producer.send("tracking", key=user_id.encode("utf-8"), value=event)
`,
      },
    },
    {
      name: 'kafkajs: one send of records under several constant keys spreads them over those keys',
      files: {
        'src/seed/regions.ts': `import { Kafka } from 'kafkajs';

const producer = new Kafka({ clientId: 'seed', brokers: ['kafka:9092'] }).producer();

export async function seedRegions() {
  await producer.send({
    topic: 'region-config',
    messages: [
      { key: 'eu-west', value: '{"currency":"EUR"}' },
      { key: 'us-east', value: '{"currency":"USD"}' },
      { key: 'ap-south', value: '{"currency":"INR"}' },
    ],
  });
}
`,
      },
    },
    {
      name: 'a send that is not a Kafka producer',
      files: {
        'src/routes/health.ts': `import type { Request, Response } from 'express';
import { mailer } from '../mailer';

export async function health(_req: Request, res: Response) {
  await mailer.send({ to: 'ops@example.com', subject: 'up', status: 'ok' });
  res.send({ status: 'ok' });
}
`,
      },
    },
  ],
  invalid: [
    {
      name: 'kafkajs: order events keyed by the order status',
      files: {
        'src/orders/order-events.ts': `import { Kafka, type Producer } from 'kafkajs';

export interface Order {
  id: string;
  status: 'placed' | 'paid' | 'shipped';
}

export class OrderEvents {
  private readonly producer: Producer;

  constructor(kafka: Kafka) {
    this.producer = kafka.producer();
  }

  async statusChanged(order: Order): Promise<void> {
    await this.producer.send({
      topic: 'orders.status-changed',
      messages: [{ key: order.status, value: JSON.stringify(order) }],
    });
  }
}
`,
      },
      errors: [{ line: 18, severity: 'warning', messageId: 'fewValues' }],
    },
    {
      name: 'kafkajs: a batch built by map, keyed by the customer tier',
      files: {
        'src/billing/invoices.ts': `import type { Producer } from 'kafkajs';

type Invoice = { invoiceId: string; customerTier: 'free' | 'pro' | 'enterprise'; amount: number };

export async function publishInvoices(producer: Producer, invoices: Invoice[]) {
  await producer.send({
    topic: 'invoices',
    messages: invoices.map((invoice) => ({
      key: invoice.customerTier,
      value: JSON.stringify(invoice),
    })),
  });
}
`,
      },
      errors: [{ line: 9, severity: 'warning', messageId: 'fewValues' }],
    },
    {
      name: 'kafkajs: messages kept in a variable, keyed by a constant from another module',
      files: {
        'src/topics.ts': `export const NOTIFICATIONS_TOPIC = 'notifications';
export const BROADCAST_KEY = 'broadcast';
`,
        'src/notify.ts': `import { Kafka } from 'kafkajs';
import { BROADCAST_KEY, NOTIFICATIONS_TOPIC } from './topics';

const producer = new Kafka({ clientId: 'notify', brokers: ['kafka:9092'] }).producer();

export async function notifyAll(text: string) {
  const messages = [{ key: BROADCAST_KEY, value: text }];
  await producer.send({ topic: NOTIFICATIONS_TOPIC, messages });
}
`,
      },
      errors: [{ file: 'src/notify.ts', line: 7, severity: 'warning', messageId: 'constant' }],
    },
    {
      name: 'kafkajs: sendBatch keyed by the country code, and a message pinned to partition 0',
      files: {
        'src/signups.js': `const { Kafka } = require('kafkajs');

const producer = new Kafka({ brokers: ['kafka:9092'] }).producer();

exports.publishSignups = async (users) => {
  await producer.sendBatch({
    topicMessages: [
      {
        topic: 'signups',
        messages: users.map((user) => ({ key: user.countryCode, value: JSON.stringify(user) })),
      },
    ],
  });
};

exports.publishReport = async (report) => {
  await producer.send({ topic: 'reports', messages: [{ partition: 0, value: JSON.stringify(report) }] });
};
`,
      },
      errors: [
        { line: 10, severity: 'warning', messageId: 'fewValues' },
        { line: 17, severity: 'warning', messageId: 'pinned' },
      ],
    },
    {
      name: 'node-rdkafka: a key from a boolean flag, and a fixed partition',
      files: {
        'lib/accounts.js': `const Kafka = require('node-rdkafka');

const producer = new Kafka.Producer({ 'metadata.broker.list': process.env.KAFKA_BROKERS });
producer.connect();

function accountUpdated(account) {
  producer.produce('accounts', null, Buffer.from(JSON.stringify(account)), Buffer.from(String(account.isPremium)));
}

function accountClosed(account) {
  producer.produce('accounts-closed', 0, Buffer.from(JSON.stringify(account)), account.accountId);
}

module.exports = { accountUpdated, accountClosed };
`,
      },
      errors: [
        { line: 7, severity: 'warning', messageId: 'fewValues' },
        { line: 11, severity: 'warning', messageId: 'pinned' },
      ],
    },
    {
      name: '@confluentinc/kafka-javascript: the kafkajs-compatible producer keyed by a constant',
      files: {
        'src/cache/invalidate.ts': `import { KafkaJS } from '@confluentinc/kafka-javascript';

const producer = new KafkaJS.Kafka({ kafkaJS: { brokers: ['broker:9092'] } }).producer();

export async function invalidateCatalog(version: number) {
  await producer.send({
    topic: 'cache-invalidation',
    messages: [{ key: 'catalog', value: String(version) }],
  });
}
`,
      },
      errors: [{ line: 8, severity: 'warning', messageId: 'constant' }],
    },
    {
      name: 'confluent-kafka: keyed by the order status, encoded',
      files: {
        'services/orders/publisher.py': `import json

from confluent_kafka import Producer


class OrderPublisher:
    def __init__(self, config):
        self._producer = Producer(config)

    def order_changed(self, order):
        self._producer.produce(
            "order-changes",
            key=order.status.encode("utf-8"),
            value=json.dumps(order.to_dict()),
        )
        self._producer.poll(0)
`,
      },
      errors: [{ line: 13, severity: 'warning', messageId: 'fewValues' }],
    },
    {
      name: "kafka-python: keyed by the subscription plan, pinned partition, and today's date",
      files: {
        'worker/publish.py': `from datetime import date

from kafka import KafkaProducer

producer = KafkaProducer(bootstrap_servers="kafka:9092")


def publish_renewal(subscription, payload):
    producer.send("renewals", key=subscription.plan.encode(), value=payload)


def publish_digest(payload):
    producer.send("digests", value=payload, partition=0)


def publish_rollup(payload):
    day = date.today().isoformat()
    producer.send("rollups", payload, day.encode())
`,
      },
      errors: [
        { line: 9, severity: 'warning', messageId: 'fewValues' },
        { line: 13, severity: 'warning', messageId: 'pinned' },
        { line: 18, severity: 'warning', messageId: 'timeBucket' },
      ],
    },
    {
      name: 'an example pinning its records to partition 0: a note, the number read as no sample id',
      files: {
        'examples/produce_users.py': `import json
import sys

from confluent_kafka import Producer


def main(topic):
    producer = Producer({"bootstrap.servers": sys.argv[1]})
    for line in sys.stdin:
        producer.produce(topic=topic, partition=0, value=json.dumps({"line": line}))
    producer.flush()


if __name__ == "__main__":
    main(sys.argv[2])
`,
      },
      errors: [{ line: 10, severity: 'info', messageId: 'pinned' }],
    },
    {
      name: 'a producer in a test runs once: a note, not a warning',
      files: {
        'test/order-events.test.ts': `import { Kafka } from 'kafkajs';
import { test } from 'node:test';

test('publishes', async () => {
  const producer = new Kafka({ brokers: ['localhost:9092'] }).producer();
  await producer.connect();
  await producer.send({ topic: 'orders', messages: [{ key: 'fixture', value: '{}' }] });
});
`,
      },
      errors: [{ line: 7, severity: 'info', messageId: 'constant' }],
    },
  ],
});
