// What a user types at each tab stop of each section's snippet when writing a contract from an
// empty file with completion alone (test/completion.test.ts in process, test/e2e/completion.e2e.ts
// in code-server), in English and in Chinese. A tab stop with no value here is left as it lands
// (empty, or a choice's first option). `### tool`: a second tool, from TOOLS' tool snippet.
export type Typed = Readonly<Record<string, readonly string[]>>;

export const TYPED: Typed = {
  AGENT_IDENTITY: ['refund-helper', 'Answer refund questions', 'Customers know where their refund is', 'Never issue a refund', 'support team', 'Ask the customer'],
  MEMORY_POLICY: ['Only verified facts', '30 days', 'Newest wins', 'The support lead may override'],
  TRIGGER: ['refund'],
  TOOLS: ['get_order', 'The order and its refund status', 'The customer asks about a refund', 'Changing an order'],
  '### tool': ['get_refund', 'The refund and its state', 'The customer asks when the money comes', 'Starting a refund'],
  FAILURE_PROTOCOL: ['the order is not found', 'Ask for the order number'],
  BUDGETS: ['Return what is known'],
  TASK: ['The customer knows the refund status'],
  'VERSIONING & AUDIT': ['First version'],
  COMPLIANCE: ['EU', 'Masked in logs', 'email', 'Every answer logged', 'GDPR'],
  SEMANTIC_ANCHORS: ['refund: money returned to the customer'],
  USER_STORIES: ['As a customer I want to know my refund status'],
};

export const TYPED_ZH: Typed = {
  AGENT_IDENTITY: ['退款助手', '回答退款问题', '客户知道退款进度', '绝不发起退款', '客服团队', '询问客户'],
  MEMORY_POLICY: ['只写入核实过的事实', '30 天', '以最新为准', '客服主管可以覆盖'],
  TRIGGER: ['退款'],
  TOOLS: ['get_order', '订单及其退款状态', '客户询问退款时', '修改订单'],
  '### tool': ['get_refund', '退款及其状态', '客户询问钱何时到账', '发起退款'],
  FAILURE_PROTOCOL: ['找不到订单', '请客户提供订单号'],
  BUDGETS: ['返回已知信息'],
  TASK: ['客户知道退款状态'],
  'VERSIONING & AUDIT': ['第一版'],
  COMPLIANCE: ['欧盟', '日志中脱敏', '邮箱', '每个回答都记录', 'GDPR'],
  SEMANTIC_ANCHORS: ['退款：退还给客户的钱'],
  USER_STORIES: ['作为客户，我想知道退款进度'],
};
